// The web environment as a registered definition: --env web, or web:shop,travel for some sites.
import { defineEnvironment } from '../../engine/environment/define.ts';
import { namedParts } from '../named-subset.ts';

export const definition = defineEnvironment({
  name: 'web',
  summary: 'web navigation on five local mini-sites in Chromium; task success checked against the site',
  options: '<site,...>',
  // The sites and the browser code load when the environment is opened, not with every process that lists it.
  load: async (ctx) =>
    (await import('./environment.ts')).webSpec({
      models: ctx.models,
      seed: ctx.seed,
      sites: namedParts(ctx, 'web', 'serves its own sites (choose sites with --env web:shop,travel)'),
    }),
});
