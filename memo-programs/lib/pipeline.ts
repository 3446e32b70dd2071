// A retrieval pipeline in one import: the unit store, every stage, and `runStages`, which runs a plain array of
// stages for one task. A program's retrieval is that array, e.g.
//   [bm25Stage({ k: 40 }), denseStage({ k: 40 }), rrfFuse(), neighbourExpand({ window: 1 }), packWhole({ render: 'compact' })]
// Every stage's tunables (default, bounds, the range worth searching) are declared beside it; STAGE_DECLARATIONS lists
// them all, and STORE_OPTIONS the store's.
import type { MemoContext, MemoryPayload, PartialRecorder } from '../contract.ts';
import { CHOICE_EVIDENCE, CHOICE_QUERIES } from './choices.ts';
import { CAP_PER_SOURCE, DEDUPE, MMR_STAGE } from './diversity.ts';
import { ENTITY_BOOST, ENTITY_FILTER } from './entity-focus.ts';
import { GRAPH_EXPAND, HOP_EXPAND, NEIGHBOUR_EXPAND } from './expansion.ts';
import { MAX_FUSE, RRF_FUSE, WEIGHTED_FUSE } from './fusion.ts';
import { INSIGHTS_PREAMBLE } from './insights.ts';
import { PACK_WHOLE, packWhole } from './packing.ts';
import { ENTITY_QUERIES, PRF_QUERY } from './query-rewrite.ts';
import { initialState, type Stage } from './retrieval-state.ts';
import { BM25_STAGE, DENSE_STAGE } from './search-stages.ts';
import { EPISODE_SEARCH } from './selection.ts';
import { PREFER_LATEST, RECENCY_BOOST, TIME_BOOST } from './time-focus.ts';
import type { StageDeclaration } from './tunables.ts';
import type { UnitStore } from './unit-store.ts';

export {
  UnitStore,
  STORE_OPTIONS,
  type StoreOptions,
  type UnitKind,
  type IndexKind,
  type FindBy,
  type EpisodeRendering,
  type EntitySource,
  type StoredUnit,
  type SourceEpisode,
} from './unit-store.ts';
export { type Stage, type RetrievalState, type Hit, type Query, type RankedList, named } from './retrieval-state.ts';
export { bm25Stage, denseStage } from './search-stages.ts';
export { rrfFuse, weightedFuse, maxFuse } from './fusion.ts';
export { prfQuery, entityQueries } from './query-rewrite.ts';
export { episodeSearch } from './selection.ts';
export { entityFilter, entityBoost } from './entity-focus.ts';
export { choiceQueries, choiceEvidence } from './choices.ts';
export { neighbourExpand, graphExpand, hopExpand } from './expansion.ts';
export { mmrStage, capPerSource, dedupe } from './diversity.ts';
export { recencyBoost, timeBoost, preferLatest } from './time-focus.ts';
export { insightsPreamble } from './insights.ts';
export { routeByKind, taskKind, type TaskKind } from './routing.ts';
export { packWhole, type PackOptions, type Rendering, type Grouping, type Layout } from './packing.ts';
export { type Tunable, type StageDeclaration, type StageRole, ROLE_ORDER } from './tunables.ts';

/** Every stage's declaration (name, role, what it needs, its tunables), in pipeline order of their roles. */
export const STAGE_DECLARATIONS: readonly StageDeclaration[] = [
  PRF_QUERY,
  ENTITY_QUERIES,
  CHOICE_QUERIES,
  EPISODE_SEARCH,
  ENTITY_FILTER,
  BM25_STAGE,
  DENSE_STAGE,
  RRF_FUSE,
  WEIGHTED_FUSE,
  MAX_FUSE,
  TIME_BOOST,
  RECENCY_BOOST,
  PREFER_LATEST,
  ENTITY_BOOST,
  CHOICE_EVIDENCE,
  NEIGHBOUR_EXPAND,
  GRAPH_EXPAND,
  HOP_EXPAND,
  MMR_STAGE,
  DEDUPE,
  CAP_PER_SOURCE,
  INSIGHTS_PREAMBLE,
  PACK_WHOLE,
];

/**
 * Runs `stages` in order for one task; without a packing stage, packs whole units compactly at the end.
 * @writes trace (appends each stage's name after it ran), payload (by packWhole() when no stage wrote one; an empty payload when the store has no unit)
 */
export async function runStages(
  stages: readonly Stage[],
  store: UnitStore,
  task: PartialRecorder,
  ctx: MemoContext,
): Promise<MemoryPayload> {
  if (!store.units.length) return { text: '', images: [] };
  const state = initialState(task, store, ctx);
  for (const stage of stages) {
    await stage(state);
    state.trace.push(stage.stageName ?? 'stage');
  }
  if (!state.payload) await packWhole()(state);
  return state.payload ?? { text: '', images: [] };
}
