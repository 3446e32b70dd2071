// ReasoningBank (../baselines/reasoning-bank.ts) written in automemo/lib's pipeline stages, with the same payloads:
// each episode distilled into items — the strategy of a success, the lesson of a failure with the checker's note,
// windows of three turns of a conversation (the memo model writes them when one is configured) — embedded; the 12
// nearest to the task at a cosine of 0.15 or more shown as "## title" blocks, best first, skipping any that does
// not fit.
import { defineMemo } from 'automemo/contract';
import { denseStage, packWhole, runStages, UnitStore } from 'automemo/lib/pipeline';

const store = new UnitStore({ units: 'items', itemWindow: 3, maxItems: 6, transcriptChars: 6000, index: 'dense', embedChars: 1_000_000 });

export const stages = [denseStage({ k: 12, minSimilarity: 0.15 }), packWhole({ layout: 'blocks', fit: 'skip', room: 0 })];

export default defineMemo({
  async update(episode, ctx) {
    await store.add(episode, ctx);
  },
  async retrieve(task, ctx) {
    return runStages(stages, store, task, ctx);
  },
});
