// The search's state and the one way it changes: applyEvent. A live search records an event by writing it to the
// journal and applying it (SearchJournal.record); a resumed search folds the journal's lines that count through the
// same function (replay.ts). Everything the search decides from is here — the tree (nodes, scores and the samples they
// were made on, failed generations, no-ops, what validation can resolve), the stop, the unscored streak, the payload
// digests the no-op check compares, CluE's pool, step 0's screen, the spend — so a resumed search decides as the
// uninterrupted one would. A new event that changes what the search decides from is one case here.
import { CostLedger } from '../../foundation/llm/ledger.ts';
import { keyedObject } from '../../foundation/keyed-object.ts';
import { type ClusterPool, emptyPool } from '../meta/clue/pool.ts';
import type { JournalEvent, StopKind } from './journal-events.ts';
import { SearchTree, type TreeNode } from './tree.ts';

type Event<T extends JournalEvent['type']> = Extract<JournalEvent, { type: T }>;

/** Whether the search goes on, and if not, why (its `stopped` line). */
export type StopState = { kind: 'running' } | { kind: StopKind; reason: string };

export interface SearchState {
  tree: SearchTree;
  stop: StopState;
  /** Validation evaluations in a row that scored nothing, and why the last one did (MAX_UNSCORED_IN_A_ROW stops). */
  unscored: { inARow: number; last: string };
  /** Each node's payloads on the quick-examination tasks, as far as the journal says them (its `digests` lines). */
  digests: Map<string, string[]>;
  /** CluE's cluster pool as the latest model clustering left it. */
  cluePool: ClusterPool;
  /** Step 0's screen of standard designs, when the run had one. */
  screen?: Event<'screen'>;
  /** Model spend: meta calls (a reused reply costs nothing) and the tokens evaluations spent. */
  ledger: CostLedger;
  /** The final phase's candidates scored on the validation held out for selection (their `selection` lines). */
  selections: Map<string, number | null>;
  /** Steps 1..budget with a `step-done` line, ascending (a parallel search killed mid-way leaves gaps). */
  doneSteps: number[];
  /** The highest of them (0 before any). */
  completedSteps: number;
  /** Step 0 (root, seeds, screen) is done. */
  initDone: boolean;
  /** The final phase (step -1) is done. */
  finalDone: boolean;
  /** Steps this session has taken an action for (since its `start` line). */
  sessionSteps: number;
  /** The lines, by kind, in journal order (what the viewer and the summary read). */
  evaluations: Event<'evaluation'>[];
  actions: Event<'action'>[];
  clusterings: Event<'clusters'>[];
  metaCalls: Event<'meta-call'>[];
}

/** The state of a run with no journal yet; `ledger` is the one the search charges (a reader's own otherwise). */
export function emptyState(ledger = new CostLedger()): SearchState {
  return {
    tree: new SearchTree(),
    stop: { kind: 'running' },
    unscored: { inARow: 0, last: '' },
    digests: new Map(),
    cluePool: emptyPool(),
    ledger,
    selections: new Map(),
    doneSteps: [],
    completedSteps: 0,
    initDone: false,
    finalDone: false,
    sessionSteps: 0,
    evaluations: [],
    actions: [],
    clusterings: [],
    metaCalls: [],
  };
}

/**
 * Applies one event to the state: the only function that changes it. A line that names a node the journal never
 * added (or adds one twice) was edited, and is refused naming its event and step.
 */
export function applyEvent(state: SearchState, e: JournalEvent): void {
  try {
    apply(state, e);
  } catch (err) {
    const where = 'step' in e ? ` of step ${e.step}` : '';
    throw new Error(`the journal does not hold together at its ${e.type} event${where}: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

function apply(state: SearchState, e: JournalEvent): void {
  const { tree } = state;
  switch (e.type) {
    case 'start':
      state.sessionSteps = 0;
      // The machinery was fixed (its unscored streak starts again), or the user let it go on: a resume carries on.
      // A budget stop holds.
      if (state.stop.kind === 'infrastructure') state.unscored = { inARow: 0, last: state.unscored.last };
      if (state.stop.kind === 'infrastructure' || state.stop.kind === 'interrupted') state.stop = { kind: 'running' };
      return;
    case 'validation':
      tree.resampling = { deterministic: e.deterministic, samples: e.samples };
      return;
    case 'node':
      tree.add(nodeOf(e));
      return;
    case 'evaluation':
      evaluation(state, e);
      return;
    case 'screen':
      state.screen = e;
      // The kept designs' evaluations follow as `evaluation` lines; the others count toward the streak here.
      for (const r of e.results)
        if (!r.kept) streak(state, r.score === null ? (r.unscored ?? 'no task was scored') : undefined);
      return;
    case 'action':
      state.actions.push(e);
      state.sessionSteps++;
      return;
    case 'no-op': {
      const { type: _type, t: _t, ...noop } = e;
      tree.noops.push(noop);
      // Found on its first validation sample, which was scored: a validation evaluation that scored.
      if (e.rule === 'first-sample') streak(state, undefined);
      return;
    }
    case 'generation-failed': {
      const { type: _type, t: _t, ...failed } = e;
      tree.failed.push(failed);
      return;
    }
    case 'digests':
      tree.get(e.node);
      state.digests.set(e.node, e.digests);
      return;
    case 'clusters':
      state.clusterings.push(e);
      if (e.source === 'model') state.cluePool = poolAfter(state.cluePool, e);
      return;
    case 'meta-call':
      state.metaCalls.push(e);
      // A reused reply made no request: journaled, not charged.
      if (!e.reused)
        state.ledger.add({
          role: e.role,
          node: e.node,
          promptTokens: e.promptTokens,
          ...(e.cachedTokens !== undefined ? { cachedTokens: e.cachedTokens } : {}),
          completionTokens: e.completionTokens,
          usd: e.usd,
        });
      return;
    case 'spend':
      state.ledger.add({
        role: e.role,
        node: e.node,
        promptTokens: e.promptTokens,
        completionTokens: e.completionTokens,
        usd: e.usd,
      });
      return;
    case 'step-done':
      stepDone(state, e.step);
      return;
    case 'stopped':
      state.stop = { kind: e.kind, reason: e.reason };
      return;
    case 'selection':
      state.selections.set(e.node, e.score);
      return;
    case 'quick-exam':
    case 'final':
      return;
  }
}

function nodeOf(e: Event<'node'>): TreeNode {
  return {
    id: e.id,
    parent: e.parent,
    kind: e.kind,
    dir: e.dir,
    hash: e.hash,
    step: e.step,
    parentSnapshot: e.parentSnapshot,
    scores: [],
    samples: [],
    ...(e.description ? { description: e.description } : {}),
    ...(e.edits?.length ? { edits: e.edits } : {}),
    ...(e.mode ? { mode: e.mode } : {}),
  };
}

/** A score joins its node's validation scores (with its sample) or is its test score; an unscored one is only noted. */
function evaluation(state: SearchState, e: Event<'evaluation'>): void {
  state.evaluations.push(e);
  const node = state.tree.get(e.node);
  if (e.split === 'train') streak(state, e.score === null ? (e.unscored ?? 'no task was scored') : undefined);
  if (e.score === null) {
    (node.unscored ??= []).push({ step: e.step, split: e.split, reason: e.unscored ?? 'no task was scored' });
    return;
  }
  if (e.split === 'test') {
    node.testScore = e.score;
    return;
  }
  node.scores.push(e.score);
  node.samples.push(e.index);
}

/** A validation evaluation extends the unscored streak (`unscored`: why it scored nothing) or ends it. */
function streak(state: SearchState, unscored: string | undefined): void {
  state.unscored = unscored
    ? { inARow: state.unscored.inARow + 1, last: unscored }
    : { inARow: 0, last: state.unscored.last };
}

function stepDone(state: SearchState, step: number): void {
  if (step === 0) state.initDone = true;
  else if (step < 0) state.finalDone = true;
  else if (!state.doneSteps.includes(step)) {
    state.doneSteps = [...state.doneSteps, step].sort((a, b) => a - b);
    state.completedSteps = Math.max(state.completedSteps, step);
  }
}

/** The pool after a model clustering: its clusters, every summary so far, earlier tasks moved or let go, this step's. */
function poolAfter(pool: ClusterPool, e: Event<'clusters'>): ClusterPool {
  const dropped = new Set(e.dropped ?? []);
  const earlier = Object.entries(pool.assignment).filter(([task]) => !dropped.has(task));
  return {
    clusters: e.clusters.map(({ id, label, description }) => ({ id, label, description })),
    // Keyed by task ids: data, so objects without a prototype.
    summaries: keyedObject([...Object.entries(pool.summaries), ...Object.entries(e.summaries)]),
    assignment: keyedObject([...earlier, ...Object.entries(e.moved ?? {}), ...Object.entries(e.assignment)]),
  };
}
