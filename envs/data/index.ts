// A benchmark as a data file, no code: --env data:<file or folder> (format in README.md).
import { defineEnvironment } from '../../engine/environment/define.ts';
import { DataEnvironment } from './environment.ts';

export const definition = defineEnvironment({
  name: 'data',
  summary: 'your benchmark as a JSONL/JSON file or folder: histories and questions, a named scoring rule',
  options: '<file or folder>',
  argIsPath: true,
  load(ctx) {
    const path = ctx.arg ?? ctx.data;
    if (!path) throw new Error('environment "data" needs its file: --env data:./my-bench.jsonl');
    return DataEnvironment.load({ path, seed: ctx.seed, models: ctx.models, images: ctx.images, onNote: ctx.onNote });
  },
});
