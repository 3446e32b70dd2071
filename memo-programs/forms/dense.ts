// The dense baseline (../baselines/dense.ts) written in automemo/lib's pipeline stages, with the same payloads: every
// step a unit embedded whole, the 40 nearest to the task at a cosine of 0.1 or more shown whole (cut at 1,200
// characters) under their episode's heading, episodes in the order they were learned.
import { defineMemo } from 'automemo/contract';
import { denseStage, packWhole, runStages, UnitStore } from 'automemo/lib/pipeline';

const store = new UnitStore({ units: 'steps', index: 'dense', indexFull: true, embedChars: 1_000_000, maxUnitChars: 1200 });

export const stages = [denseStage({ k: 40, minSimilarity: 0.1 }), packWhole({ render: 'plain', groupBy: 'episode', room: 0 })];

export default defineMemo({
  async update(episode, ctx) {
    await store.add(episode, ctx);
  },
  async retrieve(task, ctx) {
    return runStages(stages, store, task, ctx);
  },
});
