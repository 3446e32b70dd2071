// The bm25 baseline (../baselines/bm25.ts) written in automemo/lib's pipeline stages, with the same payloads: every
// step a unit, found lexically by its words and its task's instruction (the Unicode tokenizer, ties in the baseline's
// order), the 40 best shown whole (cut at 1,200 characters) under their episode's heading, episodes in the order
// they were learned. The offline search edits this array and the store's options like any pipeline's.
import { defineMemo } from 'automemo/contract';
import { bm25Stage, packWhole, runStages, UnitStore } from 'automemo/lib/pipeline';

const store = new UnitStore({ units: 'steps', index: 'bm25', findBy: 'instruction', tokenizer: 'plain', ties: 'source', indexFull: true, maxUnitChars: 1200 });

export const stages = [bm25Stage({ k: 40 }), packWhole({ render: 'plain', groupBy: 'episode', room: 0 })];

export default defineMemo({
  async update(episode, ctx) {
    await store.add(episode, ctx);
  },
  async retrieve(task, ctx) {
    return runStages(stages, store, task, ctx);
  },
});
