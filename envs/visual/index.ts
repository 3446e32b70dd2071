// The visual environment as a registered definition: --env visual, or visual:charts,mazes for some families.
import { defineEnvironment } from '../../engine/environment/define.ts';
import { namedParts } from '../named-subset.ts';
import { visualSpec } from './environment.ts';

const refusal = 'renders its own tasks (choose families with --env visual:charts,mazes)';

export const definition = defineEnvironment({
  name: 'visual',
  summary: 'visual reasoning with tools over rendered images (charts, scenes, mazes, ...); exact answers',
  options: '<family,...>',
  load: (ctx) => visualSpec({ models: ctx.models, images: ctx.images, seed: ctx.seed, families: namedParts(ctx, 'visual', refusal) }),
});
