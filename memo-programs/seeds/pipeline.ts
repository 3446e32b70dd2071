// A retrieval pipeline written with automemo/lib's stages: every step of every episode is one unit, kept whole and
// indexed both lexically and densely; a task is answered by searching both indexes, fusing them by rank, adding
// the steps next to the best hits, keeping any one episode from taking the whole payload, and packing whole steps
// under their episode's date or task until the budget is full. Each line of `stages` is one idea; the offline
// search edits this array (adds, removes, swaps and tunes stages).
import { defineMemo } from 'automemo/contract';
import { bm25Stage, capPerSource, denseStage, neighbourExpand, packWhole, rrfFuse, runStages, UnitStore } from 'automemo/lib/pipeline';

const store = new UnitStore({ units: 'steps', index: 'both' });

export const stages = [
  bm25Stage({ k: 40 }),
  denseStage({ k: 40 }),
  rrfFuse({ k: 60 }),
  neighbourExpand({ before: 1, after: 1, seeds: 10, decay: 0.7 }),
  capPerSource({ max: 6, decay: 0.8 }),
  packWhole({ render: 'compact', groupBy: 'time' }),
];

export default defineMemo({
  async update(episode, ctx) {
    await store.add(episode, ctx);
  },
  async retrieve(task, ctx) {
    return runStages(stages, store, task, ctx);
  },
});
