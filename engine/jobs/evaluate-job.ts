// An evaluation as a job: built from a compiled program and where it is evaluated, handed to an executor, and turned
// back into the EvaluationResult a local evaluation returns. A job that killed its worker twice comes back as the
// program's failure: every task of its sample scores 0 with the reason, written to the evidence as usual.
import type { CompiledProgram } from '../../sandbox/compile.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import type { Environment, Split } from '../environment/contract.ts';
import type { EvaluationResult, TaskRecord } from '../evaluate/evaluate.ts';
import { EvidenceWriter } from '../evaluate/evidence.ts';
import { mergeUsage, summarize } from '../evaluate/stats.ts';
import { automemoVersion } from '../../foundation/version.ts';
import type { JobExecutor, RunHints } from './executor.ts';
import type { EnvRef, EvalJob } from './job.ts';

export interface JobSpec {
  key: string;
  program: CompiledProgram;
  env: EnvRef;
  split: Split;
  seed: number;
  taskIds?: string[];
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
  };
}

export async function evaluateByJob(executor: JobExecutor, job: EvalJob, hints: RunHints & { evidenceDir: string }, env: Environment, images?: ImageStore): Promise<EvaluationResult> {
  const out = await executor.run(job, hints);
  if (out.result) return out.result;
  const reason = out.programFailure ?? `${out.worker} returned no result`;
  const result = await failedEvaluation(job, env, reason);
  const evidence = new EvidenceWriter(hints.evidenceDir, images);
  for (const t of result.tasks) await evidence.task(t, { text: '', images: [] }, undefined);
  await evidence.summary(result);
  return result;
}

/** Every task of the job's sample failed by the program, for the reason given. */
export async function failedEvaluation(job: EvalJob, env: Environment, reason: string): Promise<EvaluationResult> {
  const wanted = job.taskIds ? new Set(job.taskIds) : undefined;
  const worlds = await env.worlds(job.split);
  const tasks: TaskRecord[] = worlds.flatMap((w) =>
    w.tasks
      .filter((t) => !wanted || wanted.has(t.taskId))
      .map((t) => ({ taskId: t.taskId, world: w.id, scenario: env.scenario(t.taskId), reward: 0, success: false, metrics: {}, payloadChars: 0, payloadImages: 0, truncated: false, retrieveMs: 0, agentMs: 0, cached: false, programError: reason })),
  );
  const stats = summarize(tasks, [], mergeUsage([]));
  return { program: { entry: job.program.entryPath, hash: job.program.hash }, env: env.info(), split: job.split, score: stats.score, stats, tasks, worlds: [], elapsedMs: 0 };
}
