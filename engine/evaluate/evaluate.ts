// Update-then-retrieve evaluation of one memo program on one environment split. Per world: a fresh sandbox,
// `update` every episode in order (at its time), freeze the memory, then per task `retrieve` → check the payload
// → cut it to the budget (flagged) → the agent → the checker's reward. Score = mean reward over scored tasks.
// Infrastructure failures (an upstream API, a crashed tool) are retried and, if they persist, excluded from the
// score and reported — they are never counted as the program's failure. Program failures (throws, timeouts,
// invalid payloads) score 0 for the tasks they affect, with the reason recorded.
import type { EpisodeRecorder, PartialRecorder } from '../../memo-programs/contract.ts';
import type { CompiledProgram } from '../../sandbox/compile.ts';
import { type CallResult, ProgramInstance, type SandboxError, type SandboxLimits } from '../../sandbox/isolate.ts';
import { applyBudget, checkPayload, type WirePayload } from '../../sandbox/payload.ts';
import type { HostServices } from '../../sandbox/primitives/index.ts';
import { InstancePrimitives } from '../../sandbox/primitives/index.ts';
import type { Quotas } from '../../sandbox/primitives/quotas.ts';
import { type Environment, type EnvironmentInfo, InfraError, type Split, type TaskOutcome, type World } from '../environment/contract.ts';
import { type EvidenceWriter, keptExplanation } from './evidence.ts';
import { mapLimit } from './limit.ts';
import { type OutcomeCache, outcomeKey } from './outcome-cache.ts';
import type { EvaluationResult, TaskRecord, WorldRecord } from './records.ts';
import { mergeUsage, summarize } from './stats.ts';

// The records are records.ts's; callers take them from here, beside the evaluator.
export type { EvaluationResult, TaskRecord, WorldRecord } from './records.ts';

export interface EvaluateOptions {
  env: Environment;
  split: Split;
  services: HostServices;
  limits?: Partial<SandboxLimits>;
  quotas?: Partial<Quotas>;
  seed?: number;
  /** Worlds evaluated at once (default 2). */
  concurrency?: number;
  /** Agent runs at once within a world (default 4). */
  taskConcurrency?: number;
  /** Extra attempts after an infrastructure failure (default 2). */
  infraRetries?: number;
  outcomeCache?: OutcomeCache;
  evidence?: EvidenceWriter;
  /** Only these worlds / at most this many tasks per world (quick runs). */
  worldIds?: string[];
  /** Only tasks this accepts (e.g. a seeded sample); worlds left without tasks are skipped entirely. */
  taskFilter?: (taskId: string) => boolean;
  maxTasksPerWorld?: number;
  onProgress?: (event: ProgressEvent) => void;
  /** Stops the evaluation between episodes and tasks (it rejects with the signal's reason; nothing is scored). */
  signal?: AbortSignal;
}

export type ProgressEvent =
  | { kind: 'world-start'; world: string; episodes: number; tasks: number }
  | { kind: 'task'; world: string; taskId: string; reward: number | null; done: number; total: number }
  | { kind: 'world-end'; world: string; score: number | null }
  | { kind: 'retry'; world: string; reason: string; attempt: number };

class WorldInfraFailure extends Error {}

const errorText = (e: SandboxError) => `${e.message}${e.location && !e.message.includes(e.location) ? ` (at ${e.location})` : ''}`;

export async function evaluateProgram(program: CompiledProgram, options: EvaluateOptions): Promise<EvaluationResult> {
  const started = performance.now();
  const info = options.env.info();
  let worlds = await options.env.worlds(options.split);
  if (options.worldIds) worlds = worlds.filter((w) => options.worldIds?.includes(w.id));
  if (options.taskFilter) {
    const keep = options.taskFilter;
    worlds = worlds.map((w) => ({ ...w, tasks: w.tasks.filter((t) => keep(t.taskId)) })).filter((w) => w.tasks.length > 0);
  }
  if (options.maxTasksPerWorld !== undefined) {
    worlds = worlds.map((w) => ({ ...w, tasks: w.tasks.slice(0, options.maxTasksPerWorld) }));
  }
  const perWorld = await mapLimit(worlds, options.concurrency ?? 2, (world) => evaluateWorld(program, world, info, options));
  const tasks = perWorld.flatMap((w) => w.tasks);
  const worldRecords = perWorld.map((w) => w.world);
  const stats = summarize(tasks, worldRecords, mergeUsage(worldRecords.map((w) => w.usage)));
  return {
    program: { entry: program.entryPath, hash: program.hash },
    env: info,
    split: options.split,
    score: stats.score,
    stats,
    tasks,
    worlds: worldRecords,
    elapsedMs: Math.round(performance.now() - started),
  };
}

async function evaluateWorld(
  program: CompiledProgram,
  world: World,
  info: EnvironmentInfo,
  options: EvaluateOptions,
): Promise<{ world: WorldRecord; tasks: TaskRecord[] }> {
  const retries = options.infraRetries ?? 2;
  options.onProgress?.({ kind: 'world-start', world: world.id, episodes: world.episodes.length, tasks: world.tasks.length });
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await attemptWorld(program, world, info, options, attempt);
      const scored = result.tasks.filter((t) => t.reward !== null);
      options.onProgress?.({
        kind: 'world-end',
        world: world.id,
        score: scored.length ? scored.reduce((s, t) => s + (t.reward as number), 0) / scored.length : null,
      });
      await options.evidence?.world(result.world);
      return result;
    } catch (err) {
      if (!(err instanceof WorldInfraFailure) || attempt > retries) {
        if (err instanceof WorldInfraFailure) return infraFailedWorld(world, options, err.message, attempt);
        throw err;
      }
      options.onProgress?.({ kind: 'retry', world: world.id, reason: err.message, attempt });
    }
  }
}

function infraFailedWorld(world: World, options: EvaluateOptions, reason: string, attempts: number) {
  const tasks = world.tasks.map((t) => infraFailedTask(t, world, options, reason));
  return {
    world: { world: world.id, episodes: world.episodes.length, tasks: world.tasks.length, updateMs: 0, updateErrors: [], attempts, usage: null, loadMs: 0 },
    tasks,
  };
}

async function attemptWorld(
  program: CompiledProgram,
  world: World,
  info: EnvironmentInfo,
  options: EvaluateOptions,
  attempt: number,
): Promise<{ world: WorldRecord; tasks: TaskRecord[] }> {
  const prims = new InstancePrimitives(options.services, options.quotas ? { quotas: options.quotas } : {});
  const record: WorldRecord = {
    world: world.id,
    episodes: world.episodes.length,
    tasks: world.tasks.length,
    updateMs: 0,
    updateErrors: [],
    attempts: attempt,
    usage: null,
    loadMs: 0,
  };
  const start = await ProgramInstance.start(program, prims, {
    budget: info.budget,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(world.episodeTimes?.[0] !== undefined ? { clockStart: world.episodeTimes[0] } : {}),
  });
  if (!start.ok) {
    prims.dispose();
    if (start.error.kind === 'infra') throw new WorldInfraFailure(`the program could not load: ${start.error.message}`);
    record.fatal = start.error;
    return { world: record, tasks: world.tasks.map((t) => failedTask(t, world, options, `the program did not start: ${errorText(start.error)}`)) };
  }
  const inst = start.instance;
  record.loadMs = Math.round(inst.loadMs);
  const infraBefore = () => prims.infraFailures;
  try {
    // Update phase.
    const updateStarted = performance.now();
    const init = await inst.init();
    if (!init.ok) noteUpdateFailure(record, '(init)', init, prims, 0);
    for (const [i, episode] of world.episodes.entries()) {
      options.signal?.throwIfAborted();
      if (!inst.alive) break;
      const time = world.episodeTimes?.[i];
      if (time !== undefined) await inst.setClock(time);
      const before = infraBefore();
      const r = await inst.update(episode as EpisodeRecorder);
      if (!r.ok) noteUpdateFailure(record, episode.taskId, r, prims, before);
    }
    record.updateMs = Math.round(performance.now() - updateStarted);
    prims.freeze();
    let clock = world.retrieveTime;
    if (clock !== undefined && inst.alive) await inst.setClock(clock);

    // Retrieve phase: retrieves run one at a time in the sandbox; agents run alongside, up to taskConcurrency.
    const total = world.tasks.length;
    let done = 0;
    const agentSlots = new Semaphore(options.taskConcurrency ?? 4);
    const pending: Promise<TaskRecord>[] = [];
    /** The sandbox was stopped by an infrastructure failure: the tasks left are unscored, not failed. */
    let infraDeath: string | undefined;
    for (const task of world.tasks) {
      options.signal?.throwIfAborted();
      if (!inst.alive) {
        const why = record.fatal ? errorText(record.fatal) : 'the sandbox stopped';
        pending.push(
          Promise.resolve(
            infraDeath ? infraFailedTask(task, world, options, `not retrieved: ${infraDeath}`) : failedTask(task, world, options, `not retrieved: ${why}`),
          ),
        );
        continue;
      }
      const asked = world.taskTimes?.get(task.taskId) ?? world.retrieveTime;
      if (asked !== undefined && asked !== clock) await inst.setClock((clock = asked));
      const retrieved = await retrieveWithRetry(inst, task, prims, options.infraRetries ?? 2);
      if (!retrieved.ok && !inst.alive) {
        if (retrieved.error.kind === 'infra') infraDeath ??= retrieved.error.message;
        else record.fatal ??= retrieved.error;
      }
      await agentSlots.acquire();
      pending.push(
        scoreTask(task, world, retrieved, info, options)
          .finally(() => agentSlots.release())
          .then(async (rec) => {
            done++;
            options.onProgress?.({ kind: 'task', world: world.id, taskId: rec.taskId, reward: rec.reward, done, total });
            return rec;
          }),
      );
    }
    const tasks = await Promise.all(pending);
    record.usage = prims.usage();
    return { world: record, tasks };
  } finally {
    inst.dispose();
    prims.dispose();
  }
}

function noteUpdateFailure(record: WorldRecord, episode: string, r: CallResult<unknown>, prims: InstancePrimitives, infraBefore: number): void {
  if (r.ok) return;
  if (prims.infraFailures > infraBefore || r.error.kind === 'infra') {
    throw new WorldInfraFailure(`update of ${episode} failed on ${r.error.kind === 'infra' ? 'shared machinery' : 'an upstream service'}: ${r.error.message}`);
  }
  record.updateErrors.push({ episode, message: errorText(r.error) });
  if (r.error.kind !== 'threw' && r.error.kind !== 'payload' && r.error.kind !== 'interface') record.fatal ??= r.error;
}

type Retrieved = CallResult<WirePayload> & { infra?: string };

async function retrieveWithRetry(inst: ProgramInstance, task: PartialRecorder, prims: InstancePrimitives, retries: number): Promise<Retrieved> {
  for (let attempt = 0; ; attempt++) {
    const before = prims.infraFailures;
    const r = await inst.retrieve(task);
    if (!r.ok && r.error.kind === 'infra') return { ...r, infra: r.error.message };
    if (r.ok || prims.infraFailures === before || !inst.alive) return r;
    if (attempt >= retries) return { ...r, infra: `retrieve failed on an upstream service ${attempt + 1} times: ${r.error.message}` };
  }
}

async function scoreTask(
  task: PartialRecorder,
  world: World,
  retrieved: Retrieved,
  info: EnvironmentInfo,
  options: EvaluateOptions,
): Promise<TaskRecord> {
  const base = {
    taskId: task.taskId,
    world: world.id,
    scenario: options.env.scenario(task.taskId),
    ...sourceOf(options.env, task.taskId),
    retrieveMs: Math.round(retrieved.ms * 100) / 100,
  };
  if (!retrieved.ok) {
    if (retrieved.infra) return { ...infraFailedTask(task, world, options, retrieved.infra), ...base };
    const rec = { ...failedTask(task, world, options, `retrieve failed: ${errorText(retrieved.error)}`), ...base };
    await options.evidence?.task(rec, { text: '', images: [] }, undefined, task.instruction, keptExplanation(options.env, task.taskId));
    return rec;
  }
  const checked = checkPayload(retrieved.value, info.budget, options.services.images);
  const cut = applyBudget(checked.payload, info.budget);
  const payloadFacts = {
    payloadChars: checked.textChars,
    payloadImages: checked.payload.images.length,
    truncated: cut.truncated || checked.textChars > checked.payload.text.length,
  };
  if (checked.schemaIssues.length) {
    const rec: TaskRecord = {
      ...failedTask(task, world, options, `invalid payload: ${checked.schemaIssues.join('; ')}`),
      ...base,
      ...payloadFacts,
    };
    await options.evidence?.task(rec, cut.payload, undefined, task.instruction, keptExplanation(options.env, task.taskId));
    return rec;
  }
  const key = info.deterministic && options.outcomeCache ? outcomeKey(task.taskId, cut.payload, info.agentId) : undefined;
  let outcome = key ? options.outcomeCache?.get(key) : undefined;
  const cached = outcome !== undefined;
  const agentStarted = performance.now();
  let infraError: string | undefined;
  for (let attempt = 0; !outcome; attempt++) {
    options.signal?.throwIfAborted();
    try {
      outcome = await options.env.run(task, cut.payload);
      if (key) options.outcomeCache?.set(key, outcome);
    } catch (err) {
      if (!(err instanceof InfraError)) throw err;
      if (attempt >= (options.infraRetries ?? 2)) {
        infraError = `${err.message} (after ${attempt + 1} attempts)`;
        break;
      }
    }
  }
  const rec: TaskRecord = {
    ...base,
    ...payloadFacts,
    reward: outcome ? outcome.reward : null,
    success: outcome?.success ?? false,
    metrics: outcome?.metrics ?? {},
    agentMs: Math.round(performance.now() - agentStarted),
    cached,
    ...(outcome?.note ? { note: outcome.note } : {}),
    ...(outcome?.trajectory.answer !== undefined ? { answer: outcome.trajectory.answer } : {}),
    ...(outcome?.trajectory.tokens && !cached ? { tokens: outcome.trajectory.tokens } : {}),
    ...(infraError ? { infraError } : {}),
    ...(payloadFacts.truncated ? { note: `${outcome?.note ? `${outcome.note}; ` : ''}payload cut to the budget` } : {}),
  };
  await options.evidence?.task(rec, cut.payload, outcome as TaskOutcome | undefined, task.instruction, keptExplanation(options.env, task.taskId));
  return rec;
}

function failedTask(task: PartialRecorder, world: World, options: EvaluateOptions, reason: string): TaskRecord {
  return {
    taskId: task.taskId,
    world: world.id,
    scenario: options.env.scenario(task.taskId),
    ...sourceOf(options.env, task.taskId),
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
  };
}

/** A task the machinery could not score: no reward, excluded from the score, counted apart. */
function infraFailedTask(task: PartialRecorder, world: World, options: EvaluateOptions, reason: string): TaskRecord {
  const { programError: _none, ...rest } = failedTask(task, world, options, '');
  return { ...rest, reward: null, infraError: reason };
}

/** A counting semaphore for bounding agent runs. */
class Semaphore {
  private waiting: (() => void)[] = [];
  constructor(private free: number) {}
  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/** A task's source, in an environment composed of several (TaskRecord.source); nothing otherwise. */
export function sourceOf(env: Environment, taskId: string): { source?: string } {
  const source = env.source?.(taskId);
  return source !== undefined ? { source } : {};
}
