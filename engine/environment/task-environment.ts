// A full Environment from tasks, an agent and a checker (task-spec.ts). The spec is checked when it arrives; tasks
// without a role get one per scenario (roles.ts); update episodes are the agent's runs without memory, collected once
// and stored (collect-episodes.ts). One world per split: on train (what the search uses) the memory learns from the
// update batch and is asked about the validation batch; on test it learns from the update batch (protocol 'update',
// the default) or the update and validation batches (protocol 'update+validation') and is asked about the test tasks.
import type { EpisodeRecorder, MemoryPayload, PartialRecorder } from '../../memo-programs/contract.ts';
import { DEFAULT_BUDGET } from '../../sandbox/payload.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import { collectEpisodes } from '../evaluate/collect-episodes.ts';
import type { EpisodeStore } from '../evaluate/episode-store.ts';
import type {
  Environment,
  EnvironmentGuide,
  EnvironmentInfo,
  Explanation,
  Split,
  TaskOutcome,
  World,
} from './contract.ts';
import { checkedExplanation, EXPLANATION_LIMITS } from './explanation.ts';
import { assignRoles } from './roles.ts';
import { taskGuide } from './task-guide.ts';
import { hashCatalog, hashTask } from './task-hash.ts';
import { episodeRecord, partialRecord, trajectoryOf } from './task-records.ts';
import { runAndScore } from './task-run.ts';
import { checkTaskSpec, roleProblems, throwProblems } from './task-spec-check.ts';
import type { EnvTask, TaskEnvironmentSpec, TaskRole } from './task-spec.ts';
import type { EnvironmentLimits } from './define.ts';
import { DEFAULT_PROTOCOL, type Protocol } from './protocol.ts';

export interface TaskEnvironmentContext {
  /** The run's seed: roles of tasks without one depend on it. */
  seed: number;
  /** What a memory asked test questions learns from (protocol.ts; default 'update'). */
  protocol?: Protocol;
  /** The host's image store: task and step images go here, so programs can reach them by id. */
  images: ImageStore;
  onNote?: (message: string) => void;
  /** A hash of the environment's code (a module's fingerprint): part of the update episodes' key. */
  sourceHash?: string;
  /** Where update episodes are stored (default the cache folder). */
  episodeStore?: EpisodeStore;
  /** Time limits of the agent's and the checker's calls (the definition's; defaults otherwise). */
  limits?: EnvironmentLimits;
  /** The module the environment was loaded from, named in messages about its code (its agent, its checker, its explain). */
  module?: string;
}

/** How messages name an environment: by name, and by module when it came from one. */
export const environmentLabel = (name: string, module?: string) => `environment "${name}"${module ? ` (module ${module})` : ''}`;

class TaskEnvironment<T> implements Environment {
  private readonly roles: TaskRole[];
  private readonly byId = new Map<string, number>();
  /** Task indices by the world they name (undefined: the one world of tasks that name none), in order of appearance. */
  private readonly byWorld = new Map<string | undefined, number[]>();
  private readonly hashes: string[];
  private readonly catalogHash: string;
  /** The environment as messages name it. */
  private readonly who: string;
  private readonly partials = new Map<string, Promise<PartialRecorder>>();
  private episodes: Promise<Map<string, EpisodeRecorder>> | undefined;
  /** The update tasks' episodes only: what validation (the train split) learns from. */
  private updates: Promise<Map<string, EpisodeRecorder>> | undefined;

  constructor(
    private readonly name: string,
    private readonly spec: TaskEnvironmentSpec<T>,
    private readonly context: TaskEnvironmentContext,
  ) {
    this.who = environmentLabel(name, context.module);
    this.roles = assignRoles(spec.tasks, context.seed, spec.split);
    throwProblems(name, roleProblems(this.roles));
    spec.tasks.forEach((t, i) => {
      this.byId.set(t.id, i);
      const w = this.byWorld.get(t.world);
      if (w) w.push(i);
      else this.byWorld.set(t.world, [i]);
    });
    this.hashes = spec.tasks.map((t, i) => hashTask(t, this.roles[i] as TaskRole));
    this.catalogHash = hashCatalog(this.hashes);
    // A malformed explanation is refused when the environment opens, not in the middle of a search's first step.
    if (spec.tasks[0]) this.explain(spec.tasks[0].id);
  }

  private get protocol(): Protocol {
    return this.context.protocol ?? DEFAULT_PROTOCOL;
  }

  /** Whether a memory asked the test questions learns from a task of this role (the protocol). */
  private learnsForTest(role: TaskRole): boolean {
    return role === 'update' || (role === 'validation' && this.protocol === 'update+validation');
  }

  private get mode(): 'offline' | 'model' {
    return this.spec.agent.mode ?? 'offline';
  }

  private indicesOf(keep: (role: TaskRole) => boolean): number[] {
    return this.roles.flatMap((r, i) => (keep(r) ? [i] : []));
  }

  private task(taskId: string): EnvTask<T> {
    const i = this.byId.get(taskId);
    if (i === undefined) throw new Error(`environment "${this.name}" has no task ${JSON.stringify(String(taskId).slice(0, 200))}`);
    return this.spec.tasks[i] as EnvTask<T>;
  }

  info(): EnvironmentInfo {
    const count = (r: TaskRole) => this.roles.filter((x) => x === r).length;
    return {
      name: this.name,
      mode: this.mode,
      reward: this.spec.reward,
      budget: this.spec.budget ?? DEFAULT_BUDGET,
      agentId: this.spec.agent.id,
      deterministic: this.spec.agent.deterministic ?? this.mode === 'offline',
      data: {
        ...(this.spec.data ?? {}),
        split: { update: count('update'), validation: count('validation'), test: count('test') },
        ...(this.byWorld.size > 1 || !this.byWorld.has(undefined) ? { worlds: this.byWorld.size } : {}),
        catalogHash: this.catalogHash,
        protocol: this.protocol,
      },
    };
  }

  /** What a program sees of a task before it runs (made once per task: its images enter the store once). */
  private partial(task: EnvTask<T>): Promise<PartialRecorder> {
    let p = this.partials.get(task.id);
    if (!p) {
      p = partialRecord(this.name, task, this.context.images);
      p.catch(() => this.partials.delete(task.id));
      this.partials.set(task.id, p);
    }
    return p;
  }

  /**
   * Update and validation tasks run without memory: collected once, stored, read back on later runs. The test split
   * learns from both; the update ones collected already are not run again.
   */
  private trainingEpisodes(): Promise<Map<string, EpisodeRecorder>> {
    this.episodes ??= (async () => {
      const have = (await this.updates?.catch(() => undefined)) ?? new Map<string, EpisodeRecorder>();
      const rest = this.indicesOf((r) => r !== 'test').filter((i) => !have.has((this.spec.tasks[i] as EnvTask<T>).id));
      return new Map([...have, ...(await this.collect(rest))]);
    })().catch((err) => {
      this.episodes = undefined;
      throw err;
    });
    return this.episodes;
  }

  /**
   * The update tasks' episodes: all that validation (the train split) learns from. A search's first evaluations wait
   * for these alone, not for an episode of every validation task too (on one web site, 10 browser runs instead of 40).
   */
  private updateEpisodes(): Promise<Map<string, EpisodeRecorder>> {
    if (this.episodes) return this.episodes;
    this.updates ??= this.collect(this.indicesOf((r) => r === 'update')).catch((err) => {
      this.updates = undefined;
      throw err;
    });
    return this.updates;
  }

  /** The no-memory episodes of these tasks (by index), from the store or run now. */
  private collect(train: number[]): Promise<Map<string, EpisodeRecorder>> {
    return collectEpisodes({
      key: {
        env: this.name,
        agentId: this.spec.agent.id,
        catalog: this.catalogHash,
        data: this.spec.data ?? null,
        ...(this.context.sourceHash ? { source: this.context.sourceHash } : {}),
      },
      tasks: train.map((i) => ({ id: (this.spec.tasks[i] as EnvTask<T>).id, hash: this.hashes[i] as string })),
      collectOne: async (taskId) => {
        const task = this.task(taskId);
        const partial = await this.partial(task);
        const scored = await runAndScore(this.who, this.spec, task, { text: '', images: [] }, this.context.images, this.context.limits);
        return episodeRecord(partial, scored, this.context.images);
      },
      images: this.context.images,
      ...(this.context.episodeStore ? { store: this.context.episodeStore } : {}),
      ...(this.spec.collect?.concurrency ? { concurrency: this.spec.collect.concurrency } : {}),
      ...(this.spec.collect?.attempts ? { attempts: this.spec.collect.attempts } : {}),
      ...(this.context.onNote ? { onNote: this.context.onNote } : {}),
    });
  }

  /**
   * One world per world the tasks name (one for all when they name none): on train its memory learns from its update
   * tasks and is asked its validation tasks; on test it learns from its update and validation tasks and is asked its
   * test tasks. A world with nothing to ask on a split is left out of it.
   */
  async worlds(split: Split): Promise<World[]> {
    // Under protocol 'update' the test split learns from the update episodes only: validation's episodes are not run.
    const episodes = await (split === 'test' && this.protocol === 'update+validation' ? this.trainingEpisodes() : this.updateEpisodes());
    const tasks = this.spec.tasks;
    const out: World[] = [];
    for (const [world, indices] of this.byWorld) {
      const learn = indices.filter((i) => (split === 'test' ? this.learnsForTest(this.roles[i] as TaskRole) : this.roles[i] === 'update'));
      const ask = indices.filter((i) => this.roles[i] === (split === 'test' ? 'test' : 'validation'));
      if (!ask.length) continue;
      out.push({
        id: world === undefined ? `${this.name}-${split}` : world,
        episodes: learn.map((i) => episodes.get((tasks[i] as EnvTask<T>).id)).filter((x): x is EpisodeRecorder => x !== undefined),
        tasks: await Promise.all(ask.map((i) => this.partial(tasks[i] as EnvTask<T>))),
      });
    }
    return out;
  }

  async run(task: PartialRecorder, payload: MemoryPayload): Promise<TaskOutcome> {
    const t = this.task(task.taskId);
    const partial = await this.partial(t);
    const scored = await runAndScore(this.who, this.spec, t, payload, this.context.images, this.context.limits);
    return {
      reward: scored.reward,
      success: scored.success,
      metrics: scored.metrics,
      trajectory: await trajectoryOf(partial, scored, this.context.images),
      ...(scored.note ? { note: scored.note } : {}),
    };
  }

  /**
   * What a quick examination runs on: validation tasks taken in turn from every world and scenario (at least `count`,
   * and one of each scenario up to SAMPLE_MAX_TASKS), and the update episodes of their worlds, taken in turn from every
   * scenario, up to SAMPLE_EPISODES_PER_TASK per task. Every kind of task is examined, and the memory holds enough
   * that a change in how a program ranks shows in what it returns (with the first five episodes of one scenario,
   * most edits returned the same payloads and were judged no-ops).
   */
  async samples(count: number): Promise<{ episodes: EpisodeRecorder[]; tasks: PartialRecorder[] }> {
    const tasks = this.spec.tasks;
    const validation = this.indicesOf((r) => r === 'validation');
    const scenarios = new Set(validation.map((i) => (tasks[i] as EnvTask<T>).scenario)).size;
    const want = Math.min(SAMPLE_MAX_TASKS, Math.max(count, scenarios));
    // Every scenario in turn, and within each the worlds in turn.
    const acrossWorlds = inTurn(validation, (i) => (tasks[i] as EnvTask<T>).world ?? '', validation.length);
    const ask = inTurn(acrossWorlds, (i) => (tasks[i] as EnvTask<T>).scenario, want);
    const worlds = new Set(ask.map((i) => (tasks[i] as EnvTask<T>).world));
    const learnFrom = this.indicesOf((r) => r === 'update').filter((i) => worlds.has((tasks[i] as EnvTask<T>).world));
    const shown = inTurn(learnFrom, (i) => (tasks[i] as EnvTask<T>).scenario, SAMPLE_EPISODES_PER_TASK * ask.length);
    // The update tasks' episodes, collected once and shared with validation: a check on a new benchmark does not
    // wait for the validation tasks' too (10 browser runs on one web site instead of 40).
    const all = await this.updateEpisodes();
    const episodes = shown
      .map((i) => all.get((tasks[i] as EnvTask<T>).id))
      .filter((e): e is EpisodeRecorder => e !== undefined);
    return { episodes, tasks: await Promise.all(ask.map((i) => this.partial(tasks[i] as EnvTask<T>))) };
  }

  scenario(taskId: string): string {
    const i = this.byId.get(taskId);
    return i === undefined ? 'unknown' : (this.spec.tasks[i] as EnvTask<T>).scenario;
  }

  /** The spec's explanation of a task, checked, with the task's instruction and scenario where it gives none. */
  explain(taskId: string): Explanation | undefined {
    const i = this.byId.get(taskId);
    if (i === undefined || !this.spec.explain) return undefined;
    const task = this.spec.tasks[i] as EnvTask<T>;
    const explain = this.spec.explain.bind(this.spec);
    const e = checkedExplanation(() => explain(task), this.who, taskId);
    return (
      e && {
        ...e,
        question: e.question ?? task.instruction.slice(0, EXPLANATION_LIMITS.questionChars),
        scenario: e.scenario ?? task.scenario,
      }
    );
  }

  describe(): string {
    return this.spec.description;
  }

  guide(): EnvironmentGuide {
    return taskGuide(this.spec as TaskEnvironmentSpec<unknown>, this.mode);
  }

  async close(): Promise<void> {
    await this.spec.close?.();
  }
}

/** The environment a task spec describes; throws naming every problem of the spec. */
export function taskEnvironment<T>(name: string, spec: TaskEnvironmentSpec<T>, context: TaskEnvironmentContext): Environment {
  return new TaskEnvironment<T>(name, checkTaskSpec<T>(spec, name), context);
}

const SAMPLE_EPISODES_PER_TASK = 4;
/** A quick examination asks at most this many tasks, whatever the number of scenarios. */
const SAMPLE_MAX_TASKS = 16;

/** Up to `count` items, one from each group in turn (groups in order of first appearance, items in order). */
function inTurn<I>(items: I[], group: (item: I) => string, count: number): I[] {
  const groups = new Map<string, I[]>();
  for (const item of items) {
    const key = group(item);
    const g = groups.get(key);
    if (g) g.push(item);
    else groups.set(key, [item]);
  }
  const out: I[] = [];
  for (let round = 0; out.length < count; round++) {
    const before = out.length;
    for (const g of groups.values()) if (round < g.length && out.length < count) out.push(g[round] as I);
    if (out.length === before) break;
  }
  return out;
}
