// Evaluates named programs on an environment, as many at once as the executor runs, writing evidence and
// results.json. One program's failure — it does not compile, the compiler stays dead through its restarts, the evaluation throws —
// is recorded by name and the next program still runs: a command over several programs reports what finished.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setAsideEvidence } from '../evaluate/evidence-aside.ts';
import { type Environment, EnvironmentFailure, InfraError, type Split, splitName } from '../environment/contract.ts';
import { toSafeName } from '../../foundation/safe-path.ts';
import { compileProgram, formatIssue } from '../../sandbox/compile.ts';
import type { HostServices } from '../../sandbox/primitives/index.ts';
import { ToolchainError } from '../../sandbox/toolchain-error.ts';
import type { EvaluationResult, ProgressEvent } from '../evaluate/evaluate.ts';
import { evalSample } from '../evaluate/task-sample.ts';
import { taskHash } from '../environment/roles.ts';
import { InProcessExecutor, localEnvRef } from './in-process.ts';
import { mapLimit } from '../evaluate/limit.ts';
import { evalJob, evaluateByJob } from './evaluate-job.ts';
import type { JobExecutor } from './executor.ts';
import type { EnvRef } from './job.ts';
import { type RunSeeds, runSeeds } from '../run-seeds.ts';
import { redactCredentials } from '../../foundation/redact.ts';

/** Evaluations in flight per slot of an executor that runs several jobs at once. */
const IN_FLIGHT_PER_SLOT = 4;

export interface EvalRun {
  name: string;
  path: string;
}

export interface EvalRow {
  name: string;
  result: EvaluationResult;
  evidenceDir: string;
}

export interface EvalFailure {
  name: string;
  /** What went wrong, in words a user can act on. */
  reason: string;
  /** The machinery failed (compiler, browser, upstream service, the environment's own code), not the program. */
  infrastructure: boolean;
  /** The environment's own code failed (its agent or checker, collecting update episodes): the benchmark's failure. */
  environment?: true;
}

export interface EvalRuns {
  /** Programs that finished, in the order given. */
  rows: EvalRow[];
  failures: EvalFailure[];
}

/**
 * A failure, named: the environment's when its own code failed, infrastructure when the compiler or an upstream
 * service failed, else the program's.
 */
export function describeFailure(name: string, err: unknown): EvalFailure {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof EnvironmentFailure) return { name, reason: message, infrastructure: true, environment: true };
  const infrastructure = err instanceof ToolchainError || err instanceof InfraError;
  return { name, reason: infrastructure ? `infrastructure failure: ${message}` : message, infrastructure };
}

/** A failure as one line for the user: whose it is, then why. */
export function failureLine(f: EvalFailure): string {
  if (f.environment) return `${f.name} was not evaluated: the benchmark failed, not the program: ${f.reason}`;
  return `${f.name} failed${f.infrastructure ? " (not the program's fault)" : ''}: ${f.reason}`;
}

export interface RunHooks {
  /** Called before each program (progress; tests use it to act between programs). */
  onProgram?: (name: string) => void | Promise<void>;
  /** Task-level progress of the program being evaluated. */
  onProgress?: (program: string, event: ProgressEvent) => void;
  /** Stops between episodes and tasks; the programs left are not started. */
  signal?: AbortSignal;
  /** Only this many of the split's tasks: a sample drawn with the run seed, the same for every program. */
  tasks?: number;
  /** The run's seeds (engine/run-seeds.ts; default: run seed 0). */
  seeds?: RunSeeds;
  /** Where the evaluations run, up to the executor's slots at once (default: this process, one at a time). */
  jobs?: { executor: JobExecutor; env: EnvRef };
}

export async function runEvaluations(
  programs: EvalRun[],
  env: Environment,
  split: Split,
  services: HostServices,
  outDir: string,
  hooks: RunHooks = {},
): Promise<EvalRuns> {
  const taskIds =
    hooks.tasks !== undefined ? await sampleOf(env, split, hooks.tasks, (hooks.seeds ?? runSeeds()).run) : undefined;
  const jobs = hooks.jobs ?? { executor: new InProcessExecutor(env, services), env: localEnvRef(env) };
  mkdirSync(outDir, { recursive: true });
  const out: EvalRuns = { rows: [], failures: [] };
  const entries: (Record<string, unknown> | undefined)[] = [];
  const folders = new Set<string>();
  // Folders are named in the order given, before any runs, so concurrent evaluations never share one.
  const named = programs.map((p) => {
    const base = toSafeName(p.name, 'program');
    let folder = base;
    for (let i = 2; folders.has(folder); i++) folder = `${base}-${i}`;
    folders.add(folder);
    return { p, folder };
  });
  // Where several jobs run at once, more evaluations than slots are in flight: their jobs (largest first) keep every
  // worker busy until the end, instead of one worker waiting while the other runs the last evaluation's last job.
  const slots = Math.max(1, jobs.executor.slots);
  // The benchmark failing (its agent, collecting update episodes) fails it for every program: the ones not started
  // yet are not run into the same failure again.
  let benchmarkFailed: EvalFailure | undefined;
  const settled = await mapLimit(named, slots > 1 ? IN_FLIGHT_PER_SLOT * slots : 1, async ({ p, folder }, i) => {
    hooks.signal?.throwIfAborted();
    let r: { row?: EvalRow; failure?: EvalFailure };
    if (benchmarkFailed)
      r = {
        failure: {
          ...benchmarkFailed,
          name: p.name,
          reason: `not run, the benchmark failed on ${benchmarkFailed.name} (above)`,
        },
      };
    else {
      await hooks.onProgram?.(p.name);
      try {
        r = { row: await evaluateOne(p, env, split, join(outDir, folder), jobs, services, hooks, taskIds) };
      } catch (err) {
        if (hooks.signal?.aborted) throw err;
        r = { failure: describeFailure(p.name, err) };
        if (r.failure?.environment) benchmarkFailed ??= r.failure;
      }
    }
    entries[i] = r.row
      ? {
          name: r.row.name,
          evidenceDir: r.row.evidenceDir,
          score: r.row.result.score,
          stats: r.row.result.stats,
          env: r.row.result.env,
          split: splitName(r.row.result.split),
        }
      : {
          name: p.name,
          error: r.failure?.reason,
          infrastructure: r.failure?.infrastructure,
          ...(r.failure?.environment ? { environment: true } : {}),
        };
    // Rewritten after each program, so a command killed half-way keeps what finished.
    writeFileSync(
      join(outDir, 'results.json'),
      `${redactCredentials(JSON.stringify(entries.filter(Boolean), null, 2))}\n`,
    );
    return r;
  });
  for (const r of settled) {
    if (r.row) out.rows.push(r.row);
    if (r.failure) out.failures.push(r.failure);
  }
  return out;
}

/** `tasks` of the split's tasks, drawn with the seed: the same sample for every program of one call. */
async function sampleOf(env: Environment, split: Split, tasks: number, seed: number): Promise<string[] | undefined> {
  const ids = (await env.worlds(split)).flatMap((w) => w.tasks.map((t) => t.taskId));
  const filter = evalSample(ids, Math.floor(taskHash(seed, `${split}/sample`) * 2 ** 31), 0, tasks);
  return filter ? ids.filter(filter) : undefined;
}

async function evaluateOne(
  p: EvalRun,
  env: Environment,
  split: Split,
  evidenceDir: string,
  jobs: { executor: JobExecutor; env: EnvRef },
  services: HostServices,
  hooks: RunHooks,
  taskIds: string[] | undefined,
): Promise<EvalRow> {
  const compiled = await compileProgram({ entryPath: p.path });
  if (!compiled.ok) throw new Error(`${p.name} does not compile:\n${compiled.issues.map(formatIssue).join('\n')}`);
  // A key of fixed shape: the folder may be long or hold characters a queue's ids refuse (":").
  const folderId = createHash('sha256').update(evidenceDir).digest('hex').slice(0, 16);
  const job = evalJob({
    key: `eval/${folderId}/${compiled.program.hash.slice(0, 16)}`,
    program: compiled.program,
    env: jobs.env,
    split,
    seed: (hooks.seeds ?? runSeeds()).sandbox,
    ...(taskIds ? { taskIds } : {}),
  });
  // A folder a run before this one left (the same --out): kept aside, never mixed with this evaluation's lines.
  setAsideEvidence(evidenceDir, 'previous');
  const hints = {
    evidenceDir,
    ...(hooks.signal ? { signal: hooks.signal } : {}),
    ...(hooks.onProgress ? { onProgress: (e: ProgressEvent) => hooks.onProgress?.(p.name, e) } : {}),
  };
  return { name: p.name, result: await evaluateByJob(jobs.executor, job, hints, env, services.images), evidenceDir };
}
