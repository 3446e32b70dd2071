// A quick examination as a job: the program's files as written, examined on the environment's sample episodes and
// tasks wherever the job runs, and the report back. A job under which two workers die fails the examination.
import type { ProgramFiles } from '../../memo-programs/files.ts';
import { automemoVersion } from '../../foundation/version.ts';
import type { QuickExamReport } from '../../sandbox/quick-exam.ts';
import type { JobExecutor } from './executor.ts';
import type { EnvRef, ExamJob } from './job.ts';

export interface ExamSpec {
  key: string;
  files: ProgramFiles;
  /** Where the files are in the run folder. */
  dir: string;
  env: EnvRef;
  tasks: number;
  seed: number;
}

export function examJob(spec: ExamSpec): ExamJob {
  return { kind: 'quick-exam', version: automemoVersion(), ...spec };
}

export async function examineByJob(executor: JobExecutor, job: ExamJob, signal?: AbortSignal): Promise<QuickExamReport> {
  const out = await executor.run(job, signal ? { signal } : {});
  if (out.report) return out.report;
  const detail = out.programFailure ?? `${out.worker} returned no report`;
  return {
    program: job.dir,
    passed: false,
    checks: [],
    usage: null,
    timings: { compileMs: 0, typecheckMs: 0, loadMs: 0, updateMs: 0, retrieveMs: 0, totalMs: 0 },
    payloads: [],
    modes: { embed: 'unknown', memo: 'unknown' },
    failure: { check: 'update', detail },
  };
}
