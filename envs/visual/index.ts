// The visual environment as a registered definition: --env visual, or visual:charts,mazes for some families.
import { defineEnvironment } from '../../engine/environment/define.ts';
import { namedParts } from '../named-subset.ts';

const refusal = 'renders its own tasks (choose families with --env visual:charts,mazes)';

export const definition = defineEnvironment({
  name: 'visual',
  summary: 'visual reasoning with tools over rendered images (charts, scenes, mazes, ...); exact answers',
  options: '<family,...>',
  // The families and their renderers load when the environment is opened, not with every process that lists it.
  load: async (ctx) => (await import('./environment.ts')).visualSpec({ models: ctx.models, images: ctx.images, seed: ctx.seed, families: namedParts(ctx, 'visual', refusal) }),
});
