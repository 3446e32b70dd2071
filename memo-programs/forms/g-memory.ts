// G-Memory (../baselines/g-memory.ts) written in automemo/lib's pipeline stages, with the same payloads: every step a
// unit (its interaction trace) embedded whole; every episode a task record in the episode index, linked to the two
// most similar earlier ones (cosine 0.5 or more), with insights from the memo model. A task finds the 4 most alike
// records and the records linked to them, shows their insights first (within a third of the budget), then the 40
// traces of those episodes nearest to the task, under their episode's heading.
import { defineMemo } from 'automemo/contract';
import { denseStage, episodeSearch, insightsPreamble, packWhole, runStages, UnitStore } from 'automemo/lib/pipeline';

const store = new UnitStore({
  units: 'steps',
  index: 'dense',
  indexFull: true,
  embedChars: 1_000_000,
  maxUnitChars: 1200,
  episodeIndex: true,
  linkEpisodes: 2,
  linkMin: 0.5,
  insights: true,
  insightChars: 1200,
});

export const stages = [
  episodeSearch({ k: 4, hops: 1 }),
  insightsPreamble({ share: 1 / 3 }),
  denseStage({ k: 40 }),
  packWhole({ render: 'plain', groupBy: 'episode', room: 0 }),
];

export default defineMemo({
  async update(episode, ctx) {
    await store.add(episode, ctx);
  },
  async retrieve(task, ctx) {
    return runStages(stages, store, task, ctx);
  },
});
