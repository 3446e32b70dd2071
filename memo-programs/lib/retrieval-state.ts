// What a retrieval pipeline passes from stage to stage. A program's retrieve is a plain array of stages run in
// order: search stages add ranked lists, fusion turns pending lists into scored hits, later stages rescore, expand
// or reorder the hits, and a packing stage writes the payload. Every stage tolerates a missing predecessor (hits
// needed before any fusion are fused by reciprocal rank), so a stage can be added or removed anywhere.
import type { MemoContext, MemoryPayload, PartialRecorder } from '../contract.ts';
import type { UnitStore } from './unit-store.ts';

export interface Query {
  text: string;
  /** How much the lists this query finds count in fusion. */
  weight: number;
  /** Only these unit labels may be found (a per-entity sub-query). */
  only?: number[];
  /** Where the query came from, e.g. "task", "prf", "entity:anna". */
  origin: string;
}

/** One unit found, with its score and the stage that found it. */
export interface Hit {
  label: number;
  score: number;
  via: string;
  /** The score the search that first found it gave it (a cosine similarity, a BM25 score), when it gave one. */
  raw?: number;
}

export interface RankedList {
  /** The search that made it, e.g. "bm25:task". */
  name: string;
  weight: number;
  labels: number[];
  /** Each label's own score (larger is better), for score-based fusion; ranks are used without it. */
  scores?: number[];
}

export interface RetrievalState {
  task: PartialRecorder;
  ctx: MemoContext;
  store: UnitStore;
  queries: Query[];
  /** Ranked lists not yet fused. */
  lists: RankedList[];
  /** Scored units, best first (after fusion). */
  hits: Hit[];
  /** The episodes (source indexes) a selection stage chose, in its order; searches are restricted to their units. */
  episodes?: number[];
  /** Text shown above the packed units (insights, say); packing leaves it and a blank line out of its budget. */
  preamble?: string;
  /** Set by a packing stage. */
  payload?: MemoryPayload;
  /** Stages that ran, in order, for the payload's metadata. */
  trace: string[];
}

/** One step of a retrieval pipeline. */
export type Stage = ((state: RetrievalState) => void | Promise<void>) & { stageName?: string };

/** Names a stage function, so traces and the offline agent can tell stages apart. */
export function named(name: string, run: (state: RetrievalState) => void | Promise<void>): Stage {
  return Object.assign(run, { stageName: name });
}

/**
 * A fresh state for one task: the task's instruction as the only query.
 * @writes queries ([{ text: task.instruction, weight: 1, origin: "task" }]), lists ([]), hits ([]), trace ([])
 */
export function initialState(task: PartialRecorder, store: UnitStore, ctx: MemoContext): RetrievalState {
  return { task, ctx, store, queries: [{ text: task.instruction ?? '', weight: 1, origin: 'task' }], lists: [], hits: [], trace: [] };
}

/**
 * Sorts hits best first (ties by label, so the order is deterministic).
 * @order score descending, ties by label ascending (in place)
 */
export function sortHits(hits: Hit[]): Hit[] {
  return hits.sort((a, b) => b.score - a.score || a.label - b.label);
}

/** Restricts every query to `labels` (within what a query was already restricted to). */
export function restrictQueries(state: RetrievalState, labels: number[]): void {
  const allowed = new Set(labels);
  state.queries = state.queries.map((q) => ({ ...q, only: q.only ? q.only.filter((l) => allowed.has(l)) : labels.slice() }));
}
