// Trajectory retrieval (../seeds/trajectory-retrieval.ts) written in automemo/lib's pipeline stages, with the same
// payloads: every past episode one unit, rendered as its task, outcome, the checker's note, numbered actions and
// answer, found by how alike its instruction is to the task (embeddings); the 3 most alike at a cosine of 0.3 or
// more shown as blocks headed by rank and similarity, stopping at the first that does not fit.
import { defineMemo } from 'automemo/contract';
import { denseStage, packWhole, runStages, UnitStore } from 'automemo/lib/pipeline';

const store = new UnitStore({ units: 'episodes', episodeText: 'trajectory', notes: true, index: 'dense', findBy: 'instruction', embedChars: 1_000_000 });

export const stages = [
  denseStage({ k: 3, minSimilarity: 0.3 }),
  packWhole({ layout: 'blocks', header: 'similarity', fit: 'stop', room: 0, intro: 'Similar past tasks, most similar first:', introInBudget: false }),
];

export default defineMemo({
  async update(episode, ctx) {
    await store.add(episode, ctx);
  },
  async retrieve(task, ctx) {
    return runStages(stages, store, task, ctx);
  },
});
