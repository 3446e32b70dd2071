// Where a command's evaluations run (engine/jobs): in this process, in local worker processes (--workers N), or on
// workers behind Redis (--queue URL); and the worker side of both, which opens the environment a job names the way
// the search did and refuses a job whose environment differs here.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { BUILTIN_ENVIRONMENTS } from '../envs/index.ts';
import type { Environment } from '../engine/environment/contract.ts';
import type { EnvSource } from '../engine/environment/registry.ts';
import { environmentHash } from '../engine/jobs/env-hash.ts';
import type { JobExecutor } from '../engine/jobs/executor.ts';
import { OutcomeCache } from '../engine/evaluate/outcome-cache.ts';
import { InProcessExecutor } from '../engine/jobs/in-process.ts';
import { mapEnvRef, type PathMapping } from '../engine/jobs/path-map.ts';
import { checkPathMapTargets, parseEnvRoot, rootsProblem } from '../engine/jobs/env-roots.ts';
import { shareableReason } from '../engine/jobs/shareable.ts';
import { DEFAULT_LIMITS, type SandboxLimits } from '../sandbox/isolate.ts';
import type { TypecheckLimits } from '../sandbox/typecheck-thread.ts';
import type { EnvRef } from '../engine/jobs/job.ts';
import { type JobContext, JobRefused } from '../engine/jobs/run-job.ts';
import { WorkerPool } from '../engine/jobs/worker-pool.ts';
import type { ResolvedModels } from '../foundation/llm/models.ts';
import { asUsageSync, UsageError } from '../foundation/usage-error.ts';
import { MAX_WORKERS, workerNodeFlags } from './worker-count.ts';
import type { HostServices } from '../sandbox/primitives/index.ts';
import { repoRoot } from '../foundation/paths.ts';
import { environments, openEnv } from './environments.ts';
import { COMPOSED, splitComposite } from '../engine/environment/compose.ts';
import type { Protocol } from '../engine/environment/protocol.ts';

/** Where evaluations run. `workers: 0` is this process; `queue` wins over `workers`. */
export interface WorkerOptions {
  /** Local worker processes (default for the CLI: cores − 1, at least 1; for a library call: 0, this process). */
  workers?: number;
  /** redis://[:password@]host:port or rediss://…: enqueue on workers started with `automemo worker --queue`. */
  queue?: string;
  /** Jobs one local worker runs at once (default 1): a parallel search overlaps evaluations that wait. */
  jobsPerWorker?: number;
}

export { defaultWorkers, MAX_WORKERS } from './worker-count.ts';
export { noteToParent, serveIpc } from '../engine/jobs/ipc-serve.ts';
export { parsePathMapping } from '../engine/jobs/path-map.ts';
export { checkPathMapTargets, parseEnvRoot } from '../engine/jobs/env-roots.ts';

/** Serves jobs from a Redis queue; BullMQ is loaded only by the processes that serve one. */
export async function serveQueue(
  ...args: Parameters<typeof import('../engine/jobs/queue-worker.ts').serveQueue>
): ReturnType<typeof import('../engine/jobs/queue-worker.ts').serveQueue> {
  const { serveQueue: serve } = await import('../engine/jobs/queue-worker.ts');
  return serve(...args);
}

export interface ExecutorSetup {
  env: Environment;
  source: EnvSource;
  openSeed: number;
  /** What a memory asked test questions learns from (engine/environment/protocol.ts); workers open with it too. */
  protocol?: Protocol;
  data?: string;
  services: HostServices;
  onNote: (message: string) => void;
  /** The secret a queue's job ids are made with: a run's own, so its resume finds its jobs (default: this call's). */
  jobSalt?: string;
}

export interface Executor {
  executor: JobExecutor;
  ref: EnvRef;
}

export async function createExecutor(o: WorkerOptions, s: ExecutorSetup): Promise<Executor> {
  const ref: EnvRef = {
    source: s.source,
    openSeed: s.openSeed,
    hash: environmentHash(s.env, s.source),
    ...(s.data ? { data: s.data } : {}),
    ...(s.protocol ? { protocol: s.protocol } : {}),
  };
  const inProcess = () => ({ executor: new InProcessExecutor(s.env, s.services), ref });
  if (o.workers !== undefined && (!Number.isInteger(o.workers) || o.workers < 0 || o.workers > MAX_WORKERS)) {
    throw new UsageError(`workers must be a whole number from 0 to ${MAX_WORKERS}; got ${o.workers}`);
  }
  // A definition handed to this process by a library call exists nowhere a worker could load it from.
  const loadable = isLoadable(s.source);
  if (o.queue) {
    if (!loadable)
      throw new UsageError(
        `the environment "${s.source.name}" was passed as a definition: workers behind a queue cannot load it; give its module path`,
      );
    // BullMQ and its Redis client load only for a command that uses a queue.
    const { RedisQueueExecutor } = await import('../engine/jobs/redis-queue.ts');
    return { executor: await RedisQueueExecutor.connect(o.queue, s.jobSalt ? { salt: s.jobSalt } : {}), ref };
  }
  if (!o.workers) return inProcess();
  if (!loadable) {
    s.onNote(
      `the environment "${s.source.name}" was passed as a definition, which worker processes cannot load: evaluating in this process`,
    );
    return inProcess();
  }
  const args = [...workerNodeFlags(o.workers), join(repoRoot, 'bin', 'automemo.js'), 'worker', '--ipc'];
  return { executor: new WorkerPool(o.workers, { args }, Math.max(1, o.jobsPerWorker ?? 1), undefined, s.onNote), ref };
}

/** Whether a worker can open the environment from its source: a module, a built-in, or a composition of those. */
function isLoadable(source: EnvSource): boolean {
  const builtin = (name: string) => BUILTIN_ENVIRONMENTS.some((d) => d.name === name);
  if (source.kind === 'module') return true;
  if (source.name !== COMPOSED) return builtin(source.name);
  // A part a library call registered by definition is known to this process alone.
  return splitComposite(source.arg ?? source.spec, (n) => environments.has(n)).every(
    (part) => !environments.has(part.split(':')[0] as string) || builtin(part.split(':')[0] as string),
  );
}

/**
 * Why a worker started for `roots` must not open a composed environment: the first part it may not open (a module or
 * data outside its roots, or a package, which it cannot place), or undefined.
 */
function composedRootsProblem(ref: EnvRef, roots: readonly string[]): string | undefined {
  for (const part of splitComposite(ref.source.arg ?? ref.source.spec, (n) =>
    BUILTIN_ENVIRONMENTS.some((d) => d.name === n),
  )) {
    const head = part.split(':')[0] as string;
    const builtin = BUILTIN_ENVIRONMENTS.find((d) => d.name === head);
    const arg = part.slice(head.length + 1) || undefined;
    const source: EnvSource = builtin
      ? { spec: part, kind: 'builtin', name: head, ...(arg ? { arg } : {}) }
      : /^(?:\.{1,2}[\\/]|[\\/])/.test(part) || /\.(?:ts|mts|js|mjs)(?::|$)/.test(part)
        ? { spec: part, kind: 'module', name: head, path: part.replace(/(\.(?:ts|mts|js|mjs)):.*$/s, '$1') }
        : { spec: part, kind: 'module', name: head };
    const problem = rootsProblem({ ...ref, source }, roots, builtin?.argIsPath === true);
    if (problem) return problem;
  }
  return undefined;
}

const MAX_OUTCOME_CACHES = 4;

export interface WorkerContextOptions {
  /** Where this machine holds the modules and data the search had elsewhere (--path-map). */
  pathMap?: PathMapping[];
  /**
   * The folders whose environment modules and data this worker opens (--env-root), built-in environments always;
   * anything a job names elsewhere is refused unread. Absent: whatever a job names (a search's own local workers).
   */
  roots?: string[];
  /** The most a job may ask of the sandbox; a job asking more gets these (default: the sandbox's defaults). */
  maxLimits?: Partial<SandboxLimits>;
  /** A quick examination's type check: its time and memory (default: the sandbox's). */
  typecheckLimits?: TypecheckLimits;
}

/**
 * What a worker process runs jobs with: its host services, and each environment a job names, opened once (paths
 * the search had are read where `pathMap` says they are on this machine, and only under `roots` when given).
 */
export function workerContext(
  models: ResolvedModels,
  services: HostServices,
  onNote: (m: string) => void,
  given: WorkerContextOptions = {},
): JobContext {
  const worker = `${hostname()} pid ${process.pid}`;
  // Checked at start, as the CLI checks them: the whole disk is no allow-list, and a mapping outside it maps nowhere.
  const o = given.roots ? { ...given, roots: given.roots.map((r) => asUsageSync(() => parseEnvRoot(r))) } : given;
  if (o.roots) asUsageSync(() => checkPathMapTargets(o.pathMap ?? [], o.roots as string[]));
  const opened = new Map<string, Promise<Environment>>();
  const open = async (asked: EnvRef): Promise<Environment> => {
    const ref = mapEnvRef(asked, o.pathMap ?? []);
    if (o.roots) {
      const builtin =
        ref.source.kind === 'builtin' ? BUILTIN_ENVIRONMENTS.find((d) => d.name === ref.source.name) : undefined;
      const problem =
        ref.source.kind === 'builtin' && ref.source.name === COMPOSED
          ? composedRootsProblem(ref, o.roots)
          : rootsProblem(ref, o.roots, builtin?.argIsPath === true);
      if (problem) throw new JobRefused(`${worker} ${problem}`);
    }
    let env: Environment;
    try {
      let changed: string | undefined;
      ({ env, changed } = await openEnv(
        { recorded: ref.source },
        {
          models,
          images: services.images,
          seed: ref.openSeed,
          onNote,
          ...(ref.data ? { data: ref.data } : {}),
          ...(ref.protocol ? { protocol: ref.protocol } : {}),
        },
      ));
      if (changed) onNote(`${worker}: ${changed}`);
    } catch (err) {
      // What goes back names the problem in this code's words: a module's own error may quote a file. A local
      // worker (no roots) serves the user who started it, who sees the whole message.
      const reason = o.roots ? shareableReason(err) : (err as Error).message;
      onNote(`${worker} cannot open the environment ${ref.source.spec}: ${(err as Error).message}`);
      throw new JobRefused(`${worker} cannot open the environment ${ref.source.spec}: ${reason}`);
    }
    // Hashed as the search named it: a path mapped here is the same environment (the hash leaves locations out).
    const here = environmentHash(env, asked.source);
    if (here !== ref.hash) {
      throw new JobRefused(
        `${worker} has a different environment ${ref.source.spec} (content hash ${here}, the search's ${ref.hash}): give every worker the same environment code, data and models`,
      );
    }
    return env;
  };
  const outcomes = new Map<string, OutcomeCache>();
  return {
    services,
    worker,
    maxLimits: { ...DEFAULT_LIMITS, ...o.maxLimits },
    ...(o.typecheckLimits ? { typecheckLimits: o.typecheckLimits } : {}),
    // A worker keeps what the search process kept before workers: an agent's outcome for a payload it saw before is
    // not computed again (per environment: two data files may share task ids and an agent).
    outcomes: (ref) => {
      let cache = outcomes.get(ref.hash);
      if (!cache) {
        // Each cache is bounded; so is how many environments keep one (the one least recently opened goes).
        if (outcomes.size >= MAX_OUTCOME_CACHES) outcomes.delete(outcomes.keys().next().value as string);
        outcomes.set(ref.hash, (cache = new OutcomeCache()));
      }
      return cache;
    },
    environment: (ref) => {
      const key = JSON.stringify(ref);
      let env = opened.get(key);
      if (!env) {
        env = open(ref);
        // A refusal is not kept: the data may be put in place while the worker runs.
        env.catch(() => opened.delete(key));
        opened.set(key, env);
      }
      return env;
    },
  };
}
