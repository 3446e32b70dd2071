// LoCoMo as a registered environment (--env locomo; --data picks another folder of conversations).
import { defineEnvironment } from '../../engine/environment/define.ts';

export const definition = defineEnvironment({
  name: 'locomo',
  summary: 'long conversations (LoCoMo): sessions in, questions out; evidence recall offline, F1 with a model',
  async load(ctx) {
    if (ctx.arg) throw new Error(`environment "locomo" takes no options (got "locomo:${ctx.arg}"); give another data folder with --data`);
    const { LocomoEnvironment } = await import('./environment.ts');
    return LocomoEnvironment.load({ models: ctx.models, seed: ctx.seed, ...(ctx.data ? { dataDir: ctx.data } : {}) });
  },
});
