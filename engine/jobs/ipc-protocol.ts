// Messages between a search process and its local worker processes (Node's IPC channel, JSON).
import type { ProgressEvent } from '../evaluate/evaluate.ts';
import type { Job, JobOutput } from './job.ts';

export type ToWorker = { type: 'job'; id: number; job: Job; evidenceDir?: string };

export type FromWorker =
  | { type: 'ready'; version: string }
  | { type: 'done'; id: number; output: JobOutput }
  | { type: 'progress'; id: number; event: ProgressEvent }
  /** A note for the user (an environment's own, a changed file, a fallback): the search process prints it. */
  | { type: 'note'; message: string }
  /**
   * `refused`: the worker must not run it (other version, other environment): infrastructure, not the program.
   * `environment`: the environment's own code failed (engine/environment/contract.ts EnvironmentFailure).
   */
  | { type: 'failed'; id: number; message: string; refused: boolean; environment?: boolean };
