// A quick examination as a job: the program's files as written, examined on the environment's sample episodes and
// tasks wherever the job runs, and the report back. A job under which two workers die fails the examination; a
// worker that returns no report, or one whose verdict is not its checks', is the worker's failure.
import type { ProgramFiles } from '../../memo-programs/files.ts';
import { automemoVersion } from '../../foundation/version.ts';
import type { QuickExamReport } from '../../sandbox/quick-exam.ts';
import { ToolchainError } from '../../sandbox/toolchain-error.ts';
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
  if (out.report) {
    if (out.job === undefined) throw new ToolchainError('workers', `${out.worker} returned a report for ${job.key} that does not say which job it ran`);
    // Passed means every check passed, whatever a worker says.
    const passed = out.report.checks.length > 0 && out.report.checks.every((c) => c.ok) && !out.report.failure;
    if (passed !== out.report.passed) throw new ToolchainError('workers', `${out.worker} returned a report for ${job.key} whose verdict is not its checks'`);
    return out.report;
  }
  // Only the executor decides that a program failed (it killed its workers); a reply without a report is the worker's.
  if (out.programFailure === undefined) throw new ToolchainError('workers', `${out.worker} returned no report for ${job.key}`);
  const detail = out.programFailure;
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
