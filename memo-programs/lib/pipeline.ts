// A retrieval pipeline in one import: the unit store, every stage, and `runStages`, which runs a plain array of
// stages for one task. A program's retrieval is that array, e.g.
//   [bm25Stage({ k: 40 }), denseStage({ k: 40 }), rrfFuse(), neighbourExpand({ window: 1 }), packWhole({ render: 'compact' })]
import type { MemoContext, MemoryPayload, PartialRecorder } from '../contract.ts';
import { packWhole } from './packing.ts';
import { initialState, type Stage } from './retrieval-state.ts';
import type { UnitStore } from './unit-store.ts';

export { UnitStore, type StoreOptions, type UnitKind, type IndexKind, type StoredUnit, type SourceEpisode } from './unit-store.ts';
export { type Stage, type RetrievalState, type Hit, type Query, type RankedList, named } from './retrieval-state.ts';
export { bm25Stage, denseStage } from './search-stages.ts';
export { rrfFuse, weightedFuse, maxFuse } from './fusion.ts';
export { prfQuery, entityQueries } from './query-rewrite.ts';
export { neighbourExpand, graphExpand } from './expansion.ts';
export { mmrStage, capPerSource, dedupe } from './diversity.ts';
export { recencyBoost, timeBoost } from './time-focus.ts';
export { routeByKind, taskKind, type TaskKind } from './routing.ts';
export { packWhole, type PackOptions, type Rendering, type Grouping } from './packing.ts';

/**
 * Runs `stages` in order for one task; without a packing stage, packs whole units compactly at the end.
 * @writes trace (appends each stage's name after it ran), payload (by packWhole() when no stage wrote one; an empty payload when the store has no unit)
 */
export async function runStages(stages: readonly Stage[], store: UnitStore, task: PartialRecorder, ctx: MemoContext): Promise<MemoryPayload> {
  if (!store.units.length) return { text: '', images: [] };
  const state = initialState(task, store, ctx);
  for (const stage of stages) {
    await stage(state);
    state.trace.push(stage.stageName ?? 'stage');
  }
  if (!state.payload) await packWhole()(state);
  return state.payload ?? { text: '', images: [] };
}
