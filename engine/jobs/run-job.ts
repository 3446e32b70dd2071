// Runs one evaluation job in this process: the bundle checked against its hash, the environment opened by whoever
// hosts the worker (and checked against the job's content hash), the evaluation, and its evidence — written where
// the caller says (the run folder, when it is here) or packed to travel back.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { automemoVersion } from '../../foundation/version.ts';
import { bundleHash, type CompiledProgram } from '../../sandbox/compile.ts';
import { DEFAULT_LIMITS, type SandboxLimits } from '../../sandbox/isolate.ts';
import type { HostServices } from '../../sandbox/primitives/index.ts';
import type { Environment } from '../environment/contract.ts';
import { evaluateProgram, type ProgressEvent } from '../evaluate/evaluate.ts';
import { EvidenceWriter } from '../evaluate/evidence.ts';
import type { OutcomeCache } from '../evaluate/outcome-cache.ts';
import { writeInside } from '../../foundation/safe-path.ts';
import { quickExam, type QuickExamReport } from '../../sandbox/quick-exam.ts';
import type { TypecheckLimits } from '../../sandbox/typecheck-thread.ts';
import { packEvidence } from './evidence-files.ts';
import type { EnvRef, EvalJob, ExamJob, Job, JobOutput } from './job.ts';
import { jobDigest } from './job-digest.ts';

/** A job this worker must not run (other automemo, other environment): not the program's failure. */
export class JobRefused extends Error {
  override name = 'JobRefused';
}

export interface JobContext {
  services: HostServices;
  /** The environment the job names, opened (once per reference) and checked against `ref.hash`. */
  environment(ref: EnvRef): Promise<Environment>;
  /** Who runs the job, for the record ("host pid 123"). */
  worker: string;
  /** Outcomes of the environment's deterministic agent seen before, one cache per environment. */
  outcomes?: (ref: EnvRef) => OutcomeCache;
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  /** The most a job may ask of the sandbox: a job's limits above these are lowered to them (default the sandbox's). */
  maxLimits?: SandboxLimits;
  /** A quick examination's type check: its time and memory (default the sandbox's). */
  typecheckLimits?: TypecheckLimits;
}

export function checkVersion(job: Pick<Job, 'version'>, worker: string): void {
  const mine = automemoVersion();
  if (job.version !== mine) {
    throw new JobRefused(
      `${worker} holds automemo ${mine}, the search ${job.version}: install the same automemo (same code and dependencies) on every worker`,
    );
  }
}

/**
 * Runs a job here. An evaluation writes its evidence into `evidenceDir` when given (this process reaches the run
 * folder), else packs it; a quick examination reads the program where the job says when `inPlace`, else from
 * files this job writes in a folder of its own.
 */
export function runJob(job: Job, ctx: JobContext, evidenceDir?: string, inPlace = false): Promise<JobOutput> {
  return job.kind === 'evaluate' ? runEvalJob(job, ctx, evidenceDir) : runExamJob(job, ctx, inPlace);
}

export async function runExamJob(job: ExamJob, ctx: JobContext, inPlace = false): Promise<JobOutput> {
  checkVersion(job, ctx.worker);
  const env = await ctx.environment(job.env);
  const options = {
    services: ctx.services,
    samples: await env.samples(job.tasks),
    budget: env.info().budget,
    seed: job.seed,
    ...(ctx.typecheckLimits ? { typecheckLimits: ctx.typecheckLimits } : {}),
  };
  const ran = { key: job.key, worker: ctx.worker, job: jobDigest(job) };
  if (inPlace) return { ...ran, report: await quickExam({ entryPath: join(job.dir, 'index.ts') }, options) };
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'automemo-exam-')));
  try {
    for (const [name, text] of Object.entries(job.files)) writeInside(dir, name, text);
    const report = await quickExam({ entryPath: join(dir, 'index.ts') }, options);
    // Messages name the files where the search keeps them, as an examination there would (paths relative to this
    // process's folder first: one may hold the absolute path).
    let text = JSON.stringify({ ...report, program: join(job.dir, 'index.ts') });
    const rel = relative(process.cwd(), dir);
    if (rel && rel !== dir) text = text.split(rel).join(job.dir);
    const named = JSON.parse(text.split(dir).join(job.dir)) as QuickExamReport;
    return { ...ran, report: named };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The job's limits, none above `max`: whoever put the job on a queue decides nothing beyond what this worker allows. */
export function withinLimits(asked: Partial<SandboxLimits> | undefined, max: SandboxLimits): SandboxLimits {
  const pick = (k: keyof SandboxLimits) => Math.min(asked?.[k] ?? max[k], max[k]);
  return {
    heapMb: pick('heapMb'),
    callCpuMs: pick('callCpuMs'),
    callWallMs: pick('callWallMs'),
    loadMs: pick('loadMs'),
  };
}

/** `evidenceDir`: write the evidence there (this process can reach the run folder); without it, pack it. */
export async function runEvalJob(job: EvalJob, ctx: JobContext, evidenceDir?: string): Promise<JobOutput> {
  checkVersion(job, ctx.worker);
  if (bundleHash(job.program.code) !== job.program.hash)
    throw new JobRefused(
      `the job's program does not match its hash ${job.program.hash.slice(0, 12)}: it was changed on the way`,
    );
  const env = await ctx.environment(job.env);
  const program: CompiledProgram = { ...job.program, ms: 0 };
  // Packed evidence is written first into a folder this job makes; only that folder is ever removed.
  const made = evidenceDir === undefined ? mkdtempSync(join(tmpdir(), 'automemo-job-')) : undefined;
  const dir = made ?? (evidenceDir as string);
  const limits = withinLimits(job.limits, ctx.maxLimits ?? DEFAULT_LIMITS);
  try {
    const evidence = new EvidenceWriter(dir, ctx.services.images);
    const wanted = job.taskIds ? new Set(job.taskIds) : undefined;
    const result = await evaluateProgram(program, {
      env,
      split: job.split,
      services: ctx.services,
      evidence,
      seed: job.seed,
      limits,
      ...(ctx.outcomes ? { outcomeCache: ctx.outcomes(job.env) } : {}),
      ...(wanted ? { taskFilter: (id: string) => wanted.has(id) } : {}),
      ...(job.worldIds ? { worldIds: job.worldIds } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
    });
    await evidence.summary(result);
    return {
      key: job.key,
      worker: ctx.worker,
      job: jobDigest(job),
      limits,
      result,
      ...(made ? { evidence: packEvidence(made) } : {}),
    };
  } finally {
    if (made) rmSync(made, { recursive: true, force: true });
  }
}
