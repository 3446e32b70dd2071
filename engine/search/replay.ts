// Rebuilds a search from its journal. A step counts only when its `step-done` line is there, and only the lines
// of the session (each run of the process starts with a `start` line) that wrote it: a step killed half-way and
// then redone by a resumed run leaves two sets of lines with the same step number, and the first set is dropped.
// Meta-model calls are kept whatever happened to their step: their cost was real.
import type { ClusterPool } from '../meta/clue/pool.ts';
import { recordEvaluation, SearchTree } from './tree.ts';
import type { JournalEvent } from './journal-events.ts';
import { keyedObject } from '../../foundation/keyed-object.ts';

export interface Replayed {
  tree: SearchTree;
  /** Steps completed (init is step 0): the highest step with a `step-done` line. */
  completedSteps: number;
  /** Every step above 0 with a `step-done` line (a parallel search killed mid-way leaves gaps below the highest). */
  doneSteps: number[];
  initDone: boolean;
  metaCalls: Extract<JournalEvent, { type: 'meta-call' }>[];
  /** Evaluations by node, in order (validation and test). */
  evaluations: Extract<JournalEvent, { type: 'evaluation' }>[];
  actions: Extract<JournalEvent, { type: 'action' }>[];
  /** Children that never passed quick examination (for the viewer). */
  failures: Extract<JournalEvent, { type: 'generation-failed' }>[];
  /** Children not evaluated because they would have changed nothing. */
  noops: Extract<JournalEvent, { type: 'no-op' }>[];
  /** CluE's clustering of each completed step (for the viewer). */
  clusterings: Extract<JournalEvent, { type: 'clusters' }>[];
  /** Step 0's screen of standard designs, when the run had one. */
  screen?: Extract<JournalEvent, { type: 'screen' }>;
  /** CluE's pool as the last completed model clustering left it (what a resumed search carries on from). */
  cluePool: ClusterPool;
  stopped?: string;
  dropped: number;
}

export function replay(events: JournalEvent[]): Replayed {
  // The session that completed each step.
  const doneIn = new Map<number, number>();
  let session = 0;
  const sessionOf: number[] = events.map((e) => {
    if (e.type === 'start') session++;
    if (e.type === 'step-done') doneIn.set(e.step, session);
    return session;
  });
  const done = new Set(doneIn.keys());
  const tree = new SearchTree();
  const out: Replayed = { tree, completedSteps: 0, doneSteps: [...done].filter((s) => s > 0).sort((a, b) => a - b), initDone: done.has(0), metaCalls: [], evaluations: [], actions: [], failures: [], noops: [], clusterings: [], cluePool: { clusters: [], summaries: keyedObject(), assignment: keyedObject() }, dropped: 0 };
  for (const [i, e] of events.entries()) {
    if (e.type === 'meta-call') {
      out.metaCalls.push(e);
      continue;
    }
    if (!('step' in e) || e.type === 'stopped') {
      if (e.type === 'stopped') out.stopped = e.reason;
      continue;
    }
    if (doneIn.get(e.step) !== sessionOf[i]) {
      out.dropped++;
      continue;
    }
    // A journal that names a node it never added (or adds one twice) was edited: say so, and where.
    try {
      switch (e.type) {
        case 'node':
          tree.add({
            id: e.id,
            parent: e.parent,
            kind: e.kind,
            dir: e.dir,
            hash: e.hash,
            step: e.step,
            parentSnapshot: e.parentSnapshot,
            scores: [],
            ...(e.description ? { description: e.description } : {}),
            ...(e.edits ? { edits: e.edits } : {}),
          });
          break;
        case 'evaluation':
          out.evaluations.push(e);
          recordEvaluation(tree.get(e.node), e);
          break;
        case 'action':
          out.actions.push(e);
          break;
        case 'clusters':
          out.clusterings.push(e);
          if (e.source === 'model') {
            const pool = out.cluePool;
            out.cluePool = {
              clusters: e.clusters.map(({ id, label, description }) => ({ id, label, description })),
              // Keyed by task ids: data, so objects without a prototype.
              summaries: keyedObject([...Object.entries(pool.summaries), ...Object.entries(e.summaries)]),
              assignment: keyedObject([...Object.entries(pool.assignment).filter(([, c]) => e.clusters.some((x) => x.id === c)), ...Object.entries(e.assignment)]),
            };
          }
          break;
        case 'screen':
          out.screen = e;
          break;
        case 'no-op':
          out.noops.push(e);
          tree.noops.push({ parent: e.parent, step: e.step, reason: e.reason, ...(e.description ? { description: e.description } : {}), ...(e.edits ? { edits: e.edits } : {}) });
          break;
        case 'generation-failed':
          out.failures.push(e);
          tree.failed.push({ parent: e.parent, step: e.step, failure: e.failure, attempts: e.attempts });
          break;
        default:
          break;
      }
    } catch (err) {
      throw new Error(`the journal does not hold together at its ${e.type} event of step ${e.step}: ${(err as Error).message}`, { cause: err });
    }
  }
  out.completedSteps = Math.max(0, ...[...done].filter((s) => s > 0));
  return out;
}
