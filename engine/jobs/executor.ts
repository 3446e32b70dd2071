// Where evaluation jobs run: in this process, in local worker processes, or on workers behind a Redis queue. The
// search and the evaluation commands hand each evaluation to one of these and do not care which.
import type { ProgressEvent } from '../evaluate/evaluate.ts';
import type { Job, JobOutput } from './job.ts';

export interface RunHints {
  /** An evaluation's evidence folder in the run folder: the output's evidence lands there. */
  evidenceDir?: string;
  /** Stop waiting (and, where the job runs here, stop the job). */
  signal?: AbortSignal;
  /** Task-level progress of an evaluation (from a worker: worlds as they start and end, tasks throttled; progress-throttle.ts). */
  onProgress?: (event: ProgressEvent) => void;
  /** The job's work in tasks: an executor with a queue takes jobs in `queuePriority` order. */
  tasks?: number;
}

/** The lowest priority a job gets (BullMQ's range, which every executor with a queue keeps). */
export const LOWEST_PRIORITY = 2 ** 21 - 1;

/**
 * The order queued jobs start in, lowest first: jobs without a task count first (quick examinations: a search waits
 * on them), then the largest, so the last jobs of a batch are short and no worker waits long at the end for another's.
 */
export function queuePriority(hints: Pick<RunHints, 'tasks'>): number {
  return hints.tasks === undefined ? 0 : Math.min(LOWEST_PRIORITY, Math.max(1, LOWEST_PRIORITY - Math.floor(hints.tasks)));
}

export interface JobExecutor {
  /** Jobs it runs at once: how many a caller keeps in flight. */
  readonly slots: number;
  /** Where jobs run, in words every output can print ("in this process", "2 local worker processes", …). */
  readonly where: string;
  /** Runs the job; an evaluation's evidence is in `hints.evidenceDir` when this resolves. Infrastructure failures throw. */
  run(job: Job, hints: RunHints): Promise<JobOutput>;
  close(): Promise<void>;
}
