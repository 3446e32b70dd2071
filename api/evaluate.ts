// evaluate() and baselines(): update-then-retrieve evaluation of named programs as library calls. Results are what
// `automemo eval --json` and `automemo baselines --json` print (plus each task's record); evidence goes to `out`.
import { join } from 'node:path';
import { type Split, type SplitName, splitName, splitOf } from '../engine/environment/contract.ts';
import type { EnvSource } from '../engine/environment/registry.ts';
import { DEFAULT_PROTOCOL, type Protocol, ProtocolSchema } from '../engine/environment/protocol.ts';
import type { EvaluationResult, ProgressEvent } from '../engine/evaluate/evaluate.ts';
import { type EvalFailure, type EvalRuns, failureLine, runEvaluations } from '../engine/jobs/run-programs.ts';
import { runSeeds } from '../engine/run-seeds.ts';
import { type ResolvedModels, resolveModels } from '../foundation/llm/models.ts';
import { UsageError, asUsageSync } from '../foundation/usage-error.ts';
import { BASELINES, resolveProgram } from '../memo-programs/registry.ts';
import { defaultRunFolder } from '../run-store/run-folder.ts';
import { lockFolder } from '../run-store/folder-lock.ts';
import { type EnvInput, openNamed } from './environments.ts';
import { withHost } from './host.ts';
import { createExecutor } from './workers.ts';

export { BASELINES };
export type { EvalRuns };
export { failureLine, splitName };

export interface EvaluateCommon {
  /** A registered name, a module path, "data:<file>", or a definition. */
  env: EnvInput;
  /** validation (the validation tasks a search uses; `train`, its old name, is the same) or test (held out; default). */
  split?: SplitName | Split;
  /** The environment's data folder. */
  data?: string;
  /** Refuse a data: benchmark that loads only in part (a world left out whole) instead of noting it. */
  strict?: boolean;
  /** The run's seed (default 0): the split, the task sample and the sandbox's random numbers derive from it. */
  seed?: number;
  /** Holds the split fixed whatever the run seed (default: the run seed); a search's `splitSeed` gives its split. */
  splitSeed?: number;
  /** Only this many of the split's tasks, a seeded sample (the same for every program of the call). */
  tasks?: number;
  /**
   * What a memory asked test questions learns from: 'update' (default) or 'update+validation'
   * (engine/environment/protocol.ts). The result's `protocol` states it.
   */
  protocol?: Protocol;
  /** Where evidence goes (default search-trees/runs/<kind>-<time> under the working folder: defaultRunFolder). */
  out?: string;
  models?: ResolvedModels;
  signal?: AbortSignal;
  onProgress?: (program: string, event: ProgressEvent) => void;
  onNote?: (message: string) => void;
  /** Local worker processes (default 0: this process; the CLI's default is cores − 1). */
  workers?: number;
  /** A Redis URL: evaluate on `automemo worker --queue` processes (wins over workers). */
  queue?: string;
}

export interface EvaluateOptions extends EvaluateCommon {
  /** A program name (see BASELINES and omni-simplemem) or a path to a program file or folder. */
  program: string;
}

export interface EvaluateResult extends EvaluationResult {
  /** Where the evaluation ran. */
  evaluation: string;
  /** What a memory asked test questions learned from. */
  protocol: Protocol;
  /** The program's name as given. */
  name: string;
  evidenceDir: string;
  envSource: EnvSource;
}

export interface BaselinesOptions extends EvaluateCommon {
  /** Default: every baseline. */
  programs?: string[];
}

export interface BaselinesResult extends EvalRuns {
  /** Where evaluations ran. */
  evaluation: string;
  /** What a memory asked test questions learned from (the same for every program). */
  protocol: Protocol;
  /** results.json, rewritten after each program. */
  resultsPath: string;
  envSource: EnvSource;
}

async function run(
  kind: string,
  programs: string[],
  o: EvaluateCommon,
): Promise<EvalRuns & { out: string; envSource: EnvSource; evaluation: string; protocol: Protocol }> {
  const split = o.split === undefined ? 'test' : splitOf(o.split);
  if (!split) throw new UsageError(`split must be "validation" (the tasks a search validates on) or "test" (held out); got "${String(o.split).slice(0, 60)}"`);
  const seeds = runSeeds(o.seed, o.splitSeed);
  if (o.tasks !== undefined && (!Number.isInteger(o.tasks) || o.tasks < 1))
    throw new UsageError(`tasks must be a whole number from 1; got ${String(o.tasks)}`);
  const protocol = asUsageSync(() => ProtocolSchema.parse(o.protocol ?? DEFAULT_PROTOCOL));
  const resolvedPrograms = programs.map((p) => asUsageSync(() => resolveProgram(p.trim())));
  const models = o.models ?? resolveModels();
  const out = o.out ?? defaultRunFolder(kind);
  // One writer per --out, claimed before anything is opened: two evaluations into one folder would interleave their
  // evidence lines.
  const release = asUsageSync(() => lockFolder(out, 'eval or baselines'));
  return withHost(models, async (services) => {
    const opened = await openNamed(o.env, { models, images: services.images, seed: seeds.split, protocol, onNote: o.onNote ?? (() => undefined), ...(o.data ? { data: o.data } : {}), ...(o.strict ? { strict: true } : {}) });
    try {
      const jobs = await createExecutor(
        { ...(o.workers !== undefined ? { workers: o.workers } : {}), ...(o.queue ? { queue: o.queue } : {}) },
        { env: opened.env, source: opened.source, openSeed: seeds.split, protocol, ...(o.data ? { data: o.data } : {}), services, onNote: o.onNote ?? (() => undefined) },
      );
      try {
        const runs = await runEvaluations(resolvedPrograms, opened.env, split, services, out, {
          ...(o.onProgress ? { onProgress: o.onProgress } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
          ...(o.tasks !== undefined ? { tasks: o.tasks } : {}),
          seeds,
          jobs: { executor: jobs.executor, env: jobs.ref },
        });
        return { ...runs, out, envSource: opened.source, evaluation: jobs.executor.where, protocol };
      } finally {
        await jobs.executor.close();
      }
    } finally {
      await opened.env.close?.();
    }
  }).finally(release);
}

/** Evaluates one program; a program that fails (does not compile, its evaluation throws) is an error naming why. */
export async function evaluate(o: EvaluateOptions): Promise<EvaluateResult> {
  if (typeof o?.program !== 'string' || !o.program) throw new UsageError('give program: a name or a path');
  const runs = await run('eval', [o.program], o);
  const row = runs.rows[0];
  if (!row) throw new EvaluationFailed(runs.failures[0] as EvalFailure);
  return { ...row.result, name: row.name, evidenceDir: row.evidenceDir, envSource: runs.envSource, evaluation: runs.evaluation, protocol: runs.protocol };
}

/** Evaluates programs side by side; each failure is reported by name and the others still run. */
export async function baselines(o: BaselinesOptions): Promise<BaselinesResult> {
  const runs = await run('baselines', o.programs ?? BASELINES, o);
  return {
    rows: runs.rows,
    failures: runs.failures,
    resultsPath: join(runs.out, 'results.json'),
    envSource: runs.envSource,
    evaluation: runs.evaluation,
    protocol: runs.protocol,
  };
}

export class EvaluationFailed extends Error {
  constructor(readonly failure: EvalFailure) {
    super(failureLine(failure));
    this.name = 'EvaluationFailed';
  }
}
