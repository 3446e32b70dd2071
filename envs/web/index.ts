// The web environment as a registered definition: --env web, or web:shop,travel for some sites.
import { defineEnvironment } from '../../engine/environment/define.ts';
import { namedParts } from '../named-subset.ts';
import { webSpec } from './environment.ts';

export const definition = defineEnvironment({
  name: 'web',
  summary: 'web navigation on five local mini-sites in Chromium; task success checked against the site',
  options: '<site,...>',
  load: (ctx) => webSpec({ models: ctx.models, seed: ctx.seed, sites: namedParts(ctx, 'web', 'serves its own sites (choose sites with --env web:shop,travel)') }),
});
