// The final phase's choice on the validation tasks held out for selection (selection-holdout.ts): a candidate scored
// there once, journaled as a 'selection' event, read back by a resume.
import { relative } from 'node:path';
import { evalJob, evaluateByJob } from '../jobs/evaluate-job.ts';
import { jobKey } from '../jobs/job.ts';
import type { JournalEvent } from './journal-events.ts';
import { seedsOf } from './run-options.ts';
import type { SearchRun } from './search-run.ts';
import type { TreeNode } from './tree.ts';

/** The sample index a held-out evaluation's job key carries: never one of the search's samples. */
const SELECTION_INDEX = -1;

/** Held-out scores journaled by a completed final phase (a resume reads them back instead of scoring again). */
export function pastSelectionScores(events: readonly JournalEvent[]): Map<string, number | null> {
  return new Map(events.flatMap((e) => (e.type === 'selection' ? [[e.node, e.score] as [string, number | null]] : [])));
}

/**
 * Scores a candidate on the held-out tasks and journals it (type 'selection'). Not a validation evaluation: it enters
 * no mean, no count, no sample, and lastEval is not set, so no parent context ever reads it.
 */
export async function scoreOnSelection(run: SearchRun, node: TreeNode, ids: string[], step: number): Promise<number | null> {
  const program = await run.compile(node);
  const dir = run.folder.evidenceDir(node.id, 'selection', 0);
  const job = evalJob({ key: jobKey(run.runId, node.id, 'selection', SELECTION_INDEX, program.hash), program, env: run.envRef, split: 'train', seed: seedsOf(run.options).sandbox, taskIds: ids });
  const result = await evaluateByJob(run.executor, job, { evidenceDir: dir, ...(run.deps.signal ? { signal: run.deps.signal } : {}) }, run.deps.env, run.deps.services.images);
  run.log({ type: 'selection', step, node: node.id, score: result.score, tasks: result.tasks.length, evidence: relative(run.folder.dir, dir) });
  return result.score;
}
