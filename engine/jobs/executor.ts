// Where evaluation jobs run: in this process, in local worker processes, or on workers behind a Redis queue. The
// search and the evaluation commands hand each evaluation to one of these and do not care which.
import type { ProgressEvent } from '../evaluate/evaluate.ts';
import type { Job, JobOutput } from './job.ts';

export interface RunHints {
  /** An evaluation's evidence folder in the run folder: the output's evidence lands there. */
  evidenceDir?: string;
  /** Stop waiting (and, where the job runs here, stop the job). */
  signal?: AbortSignal;
  /** Task-level progress of an evaluation (from a worker behind a queue: worlds as they start and end, tasks at most every 250 ms). */
  onProgress?: (event: ProgressEvent) => void;
  /** The job's work in tasks: an executor with a queue starts the largest first, so small jobs fill the end (jobs
   * without it, quick examinations, before any). */
  tasks?: number;
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
