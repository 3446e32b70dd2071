// An evaluation as a job: built from a compiled program and where it is evaluated, handed to an executor, and turned
// back into the EvaluationResult a local evaluation returns. Where the executor runs several jobs at once, the
// evaluation goes out as one job per group of worlds (shards.ts) and comes back merged, each part and its evidence
// checked against its job (output-check.ts) before any of it lands in the evidence folder. A job that killed its worker twice comes back as the program's failure: every task of
// its sample scores 0 with the reason, written to the evidence as usual; anything else a worker gets wrong is the
// worker's failure.
import { setMaxListeners } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CompiledProgram } from '../../sandbox/compile.ts';
import { DEFAULT_LIMITS, type SandboxLimits } from '../../sandbox/isolate.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import type { Environment, Split, World } from '../environment/contract.ts';
import { type EvaluationResult, sourceOf, type TaskRecord } from '../evaluate/evaluate.ts';
import { EvidenceWriter } from '../evaluate/evidence.ts';
import { mergeUsage, summarize } from '../evaluate/stats.ts';
import { automemoVersion } from '../../foundation/version.ts';
import type { JobExecutor, RunHints } from './executor.ts';
import type { EnvRef, EvalJob, JobOutput } from './job.ts';
import { mergeShardEvidence, mergeShardResults, planShards, MAX_SHARDS, type Shard } from './shards.ts';
import { checkedResult, checkEvidence } from './output-check.ts';

export interface JobSpec {
  key: string;
  program: CompiledProgram;
  env: EnvRef;
  split: Split;
  seed: number;
  taskIds?: string[];
  /** The sandbox's limits (default the sandbox's): a job says them all, and a reply run under others is refused. */
  limits?: SandboxLimits;
}

export function evalJob(spec: JobSpec): EvalJob {
  const { entryPath, rootDir, code, map, hash, files } = spec.program;
  return {
    kind: 'evaluate',
    key: spec.key,
    version: automemoVersion(),
    program: { entryPath, rootDir, code, map, hash, files },
    env: spec.env,
    split: spec.split,
    seed: spec.seed,
    ...(spec.taskIds ? { taskIds: spec.taskIds } : {}),
    limits: { ...(spec.limits ?? DEFAULT_LIMITS) },
  };
}

export async function evaluateByJob(
  executor: JobExecutor,
  job: EvalJob,
  hints: RunHints & { evidenceDir: string },
  env: Environment,
  images?: ImageStore,
): Promise<EvaluationResult> {
  // One slot: the evaluation goes whole, here or to this process's own worker (the split's worlds are not even
  // listed, the result is not checked). Several: the worlds are listed, to split the evaluation and to check what
  // each worker returns before any of it lands in the evidence folder.
  if (executor.slots <= 1) {
    const out = await executor.run(job, hints);
    if (out.programFailure !== undefined) return failed(job, env, out.programFailure, hints.evidenceDir, images);
    return checkedResult(job, out, env, undefined);
  }
  const worlds = await env.worlds(job.split);
  return evaluateChecked(
    executor,
    job,
    planShards(worlds, MAX_SHARDS, job.taskIds ? new Set(job.taskIds) : undefined),
    worlds,
    hints,
    env,
    images,
  );
}

/**
 * The evaluation as one job per group of worlds (one job, unchanged, when the plan has one group), each job's
 * evidence landing first in a folder of its own, kept only once its result is this evaluation's and its evidence
 * that result's; merged back. One job's infrastructure failure stops the rest.
 */
async function evaluateChecked(
  executor: JobExecutor,
  job: EvalJob,
  plan: Shard[],
  worlds: World[],
  hints: RunHints & { evidenceDir: string },
  env: Environment,
  images?: ImageStore,
): Promise<EvaluationResult> {
  const started = performance.now();
  mkdirSync(hints.evidenceDir, { recursive: true });
  // The jobs' evidence lands in a folder this call makes, and only that folder is removed.
  const work = mkdtempSync(join(hints.evidenceDir, '.shards-'));
  const stop = new AbortController();
  // Every shard in flight waits on it (up to MAX_SHARDS, each with a listener or two).
  setMaxListeners(4 * MAX_SHARDS, stop.signal);
  const onAbort = () => stop.abort(hints.signal?.reason);
  hints.signal?.addEventListener('abort', onAbort, { once: true });
  if (hints.signal?.aborted) onAbort();
  let firstError: unknown;
  const jobs =
    plan.length <= 1
      ? [job]
      : plan.map(({ worldIds }, i): EvalJob => ({ ...job, key: `${job.key.slice(0, 390)}/w${i}`, worldIds }));
  try {
    const settled = await Promise.allSettled(
      jobs.map((shard, i) =>
        executor
          .run(shard, {
            evidenceDir: join(work, String(i)),
            signal: stop.signal,
            ...(plan[i] ? { tasks: plan[i].tasks } : {}),
            ...(hints.onProgress ? { onProgress: hints.onProgress } : {}),
          })
          .catch((err: unknown) => {
            firstError ??= err;
            stop.abort(err);
            throw err;
          }),
      ),
    );
    if (settled.some((s) => s.status === 'rejected'))
      throw firstError ?? (settled.find((s) => s.status === 'rejected') as PromiseRejectedResult).reason;
    const outs = settled.map((s) => (s as PromiseFulfilledResult<JobOutput>).value);
    const broken = outs.find((o) => o.programFailure !== undefined);
    if (broken) return await failed(job, env, broken.programFailure as string, hints.evidenceDir, images);
    const parts = outs.map((o, i) => checkedResult(jobs[i] as EvalJob, o, env, worlds));
    parts.forEach((part, i) => checkEvidence(join(work, String(i)), part, (outs[i] as JobOutput).worker));
    for (const i of jobs.keys()) await mergeShardEvidence(join(work, String(i)), hints.evidenceDir);
    const result = mergeShardResults(
      parts,
      worlds.map((w) => w.id),
      Math.round(performance.now() - started),
    );
    await new EvidenceWriter(hints.evidenceDir, images).summary(result);
    return result;
  } finally {
    hints.signal?.removeEventListener('abort', onAbort);
    rmSync(work, { recursive: true, force: true });
  }
}

/** A job its executor found killed its workers: the whole evaluation is the program's failure, with evidence. */
async function failed(
  job: EvalJob,
  env: Environment,
  reason: string,
  evidenceDir: string,
  images?: ImageStore,
): Promise<EvaluationResult> {
  const result = await failedEvaluation(job, env, reason);
  const evidence = new EvidenceWriter(evidenceDir, images);
  for (const t of result.tasks) await evidence.task(t, { text: '', images: [] }, undefined);
  await evidence.summary(result);
  return result;
}

/** Every task of the job's sample failed by the program, for the reason given. */
export async function failedEvaluation(job: EvalJob, env: Environment, reason: string): Promise<EvaluationResult> {
  const wanted = job.taskIds ? new Set(job.taskIds) : undefined;
  const worlds = (await env.worlds(job.split)).filter((w) => !job.worldIds || job.worldIds.includes(w.id));
  const tasks: TaskRecord[] = worlds.flatMap((w) =>
    w.tasks
      .filter((t) => !wanted || wanted.has(t.taskId))
      .map((t) => ({
        taskId: t.taskId,
        world: w.id,
        scenario: env.scenario(t.taskId),
        ...sourceOf(env, t.taskId),
        reward: 0,
        success: false,
        metrics: {},
        payloadChars: 0,
        payloadImages: 0,
        truncated: false,
        retrieveMs: 0,
        agentMs: 0,
        cached: false,
        programError: reason,
      })),
  );
  const stats = summarize(tasks, [], mergeUsage([]));
  return {
    program: { entry: job.program.entryPath, hash: job.program.hash },
    env: env.info(),
    split: job.split,
    score: stats.score,
    stats,
    tasks,
    worlds: [],
    elapsedMs: 0,
  };
}
