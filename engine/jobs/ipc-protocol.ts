// Messages between a search process and its local worker processes (Node's IPC channel, JSON).
import type { EvalJob, JobOutput } from './job.ts';

export type ToWorker = { type: 'job'; id: number; job: EvalJob; evidenceDir: string };

export type FromWorker =
  | { type: 'ready'; version: string }
  | { type: 'done'; id: number; output: JobOutput }
  /** `refused`: the worker must not run it (other version, other environment): infrastructure, not the program. */
  | { type: 'failed'; id: number; message: string; refused: boolean };
