// Runs one evaluation job in this process: the bundle checked against its hash, the environment opened by whoever
// hosts the worker (and checked against the job's content hash), the evaluation, and its evidence — written where
// the caller says (the run folder, when it is here) or packed to travel back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { automemoVersion } from '../../foundation/version.ts';
import { bundleHash, type CompiledProgram } from '../../sandbox/compile.ts';
import type { HostServices } from '../../sandbox/primitives/index.ts';
import type { Environment } from '../environment/contract.ts';
import { evaluateProgram } from '../evaluate/evaluate.ts';
import { EvidenceWriter } from '../evaluate/evidence.ts';
import type { OutcomeCache } from '../evaluate/outcome-cache.ts';
import { packEvidence } from './evidence-files.ts';
import type { EnvRef, EvalJob, JobOutput } from './job.ts';

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
  outcomeCache?: OutcomeCache;
  signal?: AbortSignal;
}

export function checkVersion(job: Pick<EvalJob, 'version'>, worker: string): void {
  const mine = automemoVersion();
  if (job.version !== mine) {
    throw new JobRefused(`${worker} holds automemo ${mine}, the search ${job.version}: install the same automemo (same code and dependencies) on every worker`);
  }
}

/** `evidenceDir`: write the evidence there (this process can reach the run folder); without it, pack it. */
export async function runEvalJob(job: EvalJob, ctx: JobContext, evidenceDir?: string): Promise<JobOutput> {
  checkVersion(job, ctx.worker);
  if (bundleHash(job.program.code) !== job.program.hash) throw new JobRefused(`the job's program does not match its hash ${job.program.hash.slice(0, 12)}: it was changed on the way`);
  const env = await ctx.environment(job.env);
  const program: CompiledProgram = { ...job.program, ms: 0 };
  const dir = evidenceDir ?? mkdtempSync(join(tmpdir(), 'automemo-job-'));
  try {
    const evidence = new EvidenceWriter(dir, ctx.services.images);
    const wanted = job.taskIds ? new Set(job.taskIds) : undefined;
    const result = await evaluateProgram(program, {
      env,
      split: job.split,
      services: ctx.services,
      evidence,
      seed: job.seed,
      ...(job.limits ? { limits: job.limits } : {}),
      ...(ctx.outcomeCache ? { outcomeCache: ctx.outcomeCache } : {}),
      ...(wanted ? { taskFilter: (id: string) => wanted.has(id) } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    await evidence.summary(result);
    return { key: job.key, worker: ctx.worker, result, ...(evidenceDir ? {} : { evidence: packEvidence(dir) }) };
  } finally {
    // Only the folder this job made for itself.
    if (!evidenceDir) rmSync(dir, { recursive: true, force: true });
  }
}
