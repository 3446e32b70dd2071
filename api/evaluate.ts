// evaluate() and baselines(): update-then-retrieve evaluation of named programs as library calls. Results are what
// `automemo eval --json` and `automemo baselines --json` print (plus each task's record); evidence goes to `out`.
import { join } from 'node:path';
import { type Split, splitName, splitOf } from '../engine/environment/contract.ts';
import type { EnvSource } from '../engine/environment/registry.ts';
import { type Protocol, protocolStatement } from '../engine/environment/protocol.ts';
import type { EvaluationResult, ProgressEvent } from '../engine/evaluate/evaluate.ts';
import { type EvalFailure, type EvalRuns, failureLine, runEvaluations } from '../engine/jobs/run-programs.ts';
import { runSeeds } from '../engine/run-seeds.ts';
import { type ResolvedModels, resolveModels } from '../foundation/llm/models.ts';
import { asUsageSync } from '../foundation/usage-error.ts';
import { BASELINES, resolveProgram } from '../memo-programs/registry.ts';
import { defaultRunFolder } from '../run-store/run-folder.ts';
import { lockFolder } from '../run-store/folder-lock.ts';
import { openNamed } from './environments.ts';
import { withHost } from './host.ts';
import { createExecutor } from './workers.ts';
import { checkOptions, type Defaulted, type OptionValues, withDefaults } from './options/derive.ts';

export { BASELINES };
export type { EvalRuns };
export { failureLine, protocolStatement, splitName };

/** What evaluate() and baselines() take besides their options (api/options/catalog.ts). */
export interface EvaluateCalls {
  models?: ResolvedModels;
  signal?: AbortSignal;
  onProgress?: (program: string, event: ProgressEvent) => void;
  onNote?: (message: string) => void;
}

/** evaluate(): the options declared for `eval` (the environment, the program, the split, …). */
export type EvaluateOptions = OptionValues<'eval'> & EvaluateCalls;

/** baselines(): the options declared for `baselines` (programs default to every baseline). */
export type BaselinesOptions = OptionValues<'baselines'> & EvaluateCalls;

/** What both run with: the options they share. */
type EvaluateCommon = Omit<BaselinesOptions, 'programs'>;

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
  programs: readonly string[],
  o: EvaluateCommon & Defaulted<'eval'>,
): Promise<EvalRuns & { out: string; envSource: EnvSource; evaluation: string; protocol: Protocol }> {
  const split = splitOf(o.split) as Split;
  const seeds = runSeeds(o.seed, o.splitSeed);
  const protocol = o.protocol;
  const resolvedPrograms = programs.map((p) => asUsageSync(() => resolveProgram(p.trim())));
  const models = o.models ?? resolveModels();
  const out = o.out ?? defaultRunFolder(kind);
  // One writer per --out, claimed before anything is opened: two evaluations into one folder would interleave their
  // evidence lines.
  const release = asUsageSync(() => lockFolder(out, 'eval or baselines'));
  return withHost(models, async (services) => {
    const opened = await openNamed(o.env, {
      models,
      images: services.images,
      seed: seeds.split,
      protocol,
      onNote: o.onNote ?? (() => undefined),
      ...(o.data ? { data: o.data } : {}),
      ...(o.strict ? { strict: true } : {}),
    });
    try {
      const jobs = await createExecutor(
        { ...(o.workers !== undefined ? { workers: o.workers } : {}), ...(o.queue ? { queue: o.queue } : {}) },
        {
          env: opened.env,
          source: opened.source,
          openSeed: seeds.split,
          protocol,
          ...(o.data ? { data: o.data } : {}),
          services,
          onNote: o.onNote ?? (() => undefined),
        },
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
  checkOptions('eval', o);
  const runs = await run('eval', [o.program], withDefaults('eval', o));
  const row = runs.rows[0];
  if (!row) throw new EvaluationFailed(runs.failures[0] as EvalFailure);
  return {
    ...row.result,
    name: row.name,
    evidenceDir: row.evidenceDir,
    envSource: runs.envSource,
    evaluation: runs.evaluation,
    protocol: runs.protocol,
  };
}

/** Evaluates programs side by side; each failure is reported by name and the others still run. */
export async function baselines(o: BaselinesOptions): Promise<BaselinesResult> {
  checkOptions('baselines', o);
  const runs = await run('baselines', o.programs ?? BASELINES, withDefaults('baselines', o));
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
