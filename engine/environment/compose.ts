// One environment made of several (`--env a,b,c`): a heterogeneous benchmark where one memory must serve every
// source at once. Each source keeps its own worlds (a world is never mixed: its id becomes `source/world`), its own
// agent and checker, and its tasks keep their source: ids `source/id`, scenarios `source/scenario` (so CluE's
// clusters and the metadata groups span the sources), and TaskRecord.source. The score is the mean of the sources'
// scores (engine/evaluate/stats.ts): each source weighs the same, whatever its number of tasks.
import type { EpisodeRecorder, MemoryPayload, PartialRecorder } from '../../memo-programs/contract.ts';
import type { Environment, EnvironmentGuide, EnvironmentInfo, Split, TaskOutcome, World } from './contract.ts';
import type { EnvironmentDefinition } from './define.ts';
import type { Explanation } from './explanation.ts';
import { openEnvironment, type OpenableEnvironment } from './open.ts';

/** Sources in one composed environment, at most. */
export const MAX_SOURCES = 8;

/** How every header states the weighting of a composed environment. */
export const SOURCE_WEIGHTING_NOTE =
  "the mean of its sources' scores: each source weighs the same, whatever its number of tasks";

/**
 * The parts of `a,b,c`. A comma also separates an environment's own options (`visual:charts,mazes`), so a piece
 * starts a new source only when it names one by itself — a registered name (`isRegistered`), `data:…`, or a module
 * path — or follows a piece that has no options; otherwise it continues the options of the piece before it.
 */
export function splitComposite(spec: string, isRegistered: (name: string) => boolean): string[] {
  const pieces = spec.split(',');
  const parts: string[] = [];
  for (const raw of pieces) {
    const piece = raw.trim();
    const head = piece.split(':')[0] as string;
    const startsOne =
      isRegistered(head) || /^(?:\.{1,2}[\\/]|[\\/])/.test(piece) || /\.(?:ts|mts|js|mjs)(?::|$)/.test(piece);
    const last = parts.length - 1;
    if (!startsOne && last >= 0 && (parts[last] as string).includes(':')) parts[last] = `${parts[last]},${piece}`;
    else parts.push(piece);
  }
  return parts;
}

export interface ComposedSource {
  /** The source's label in ids and scenarios (its environment's name, made unique). */
  label: string;
  env: Environment;
}

/** Unique labels for the sources: their environments' names, `name-2` for a second of the same name. */
export function sourceLabels(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((n) => {
    const base = n.replace(/[/\s]/g, '-') || 'source';
    const k = (seen.get(base) ?? 0) + 1;
    seen.set(base, k);
    return k === 1 ? base : `${base}-${k}`;
  });
}

class ComposedEnvironment implements Environment {
  private readonly byLabel: Map<string, Environment>;

  constructor(private readonly sources: ComposedSource[]) {
    this.byLabel = new Map(sources.map((s) => [s.label, s.env]));
  }

  /** The source and the source's own id of a composed id. */
  private split(id: string): { label: string; env: Environment; id: string } | undefined {
    const at = id.indexOf('/');
    if (at < 0) return undefined;
    const label = id.slice(0, at);
    const env = this.byLabel.get(label);
    return env ? { label, env, id: id.slice(at + 1) } : undefined;
  }

  private own(id: string): { label: string; env: Environment; id: string } {
    const found = this.split(id);
    if (!found) throw new Error(`the composed environment has no task ${JSON.stringify(id.slice(0, 200))}`);
    return found;
  }

  info(): EnvironmentInfo {
    const infos = this.sources.map((s) => ({ label: s.label, info: s.env.info() }));
    return {
      name: infos.map((x) => x.info.name).join('+'),
      mode: infos.some((x) => x.info.mode === 'model') ? 'model' : 'offline',
      reward: `${SOURCE_WEIGHTING_NOTE} (${infos.map((x) => `${x.label}: ${x.info.reward}`).join('; ')})`,
      // One memory serves every source: its payload fits the strictest budget.
      budget: {
        maxChars: Math.min(...infos.map((x) => x.info.budget.maxChars)),
        maxImages: Math.min(...infos.map((x) => x.info.budget.maxImages)),
      },
      agentId: infos.map((x) => `${x.label}=${x.info.agentId}`).join(';'),
      deterministic: infos.every((x) => x.info.deterministic),
      data: {
        composed: infos.map((x) => ({ source: x.label, name: x.info.name, data: x.info.data })),
        weighting: 'each source weighs the same',
      },
    };
  }

  async worlds(split: Split): Promise<World[]> {
    const all = await Promise.all(
      this.sources.map(async (s) => (await s.env.worlds(split)).map((w) => prefixWorld(s.label, w))),
    );
    return all.flat();
  }

  async run(task: PartialRecorder, payload: MemoryPayload): Promise<TaskOutcome> {
    const { env, id } = this.own(task.taskId);
    return env.run({ ...task, taskId: id }, payload);
  }

  async samples(count: number): Promise<{ episodes: EpisodeRecorder[]; tasks: PartialRecorder[] }> {
    const each = Math.max(1, Math.ceil(count / this.sources.length));
    const parts = await Promise.all(
      this.sources.map(async (s) => ({ label: s.label, sample: await s.env.samples(each) })),
    );
    return {
      episodes: parts.flatMap((p) => p.sample.episodes.map((e) => ({ ...e, taskId: `${p.label}/${e.taskId}` }))),
      tasks: parts.flatMap((p) => p.sample.tasks.map((t) => ({ ...t, taskId: `${p.label}/${t.taskId}` }))),
    };
  }

  scenario(taskId: string): string {
    const found = this.split(taskId);
    return found ? `${found.label}/${found.env.scenario(found.id)}` : 'unknown';
  }

  source(taskId: string): string | undefined {
    return this.split(taskId)?.label;
  }

  readers(): string[] {
    return [...new Set(this.sources.flatMap((s) => s.env.readers?.() ?? []))];
  }

  async reread(reader: string, taskId: string, payload: MemoryPayload): Promise<number | undefined> {
    const found = this.split(taskId);
    return found?.env.reread?.(reader, found.id, payload);
  }

  explain(taskId: string): Explanation | undefined {
    const found = this.split(taskId);
    const e = found?.env.explain?.(found.id);
    // The scenario as this benchmark names it (source/scenario), like every other place a task's scenario shows.
    return e && found ? { ...e, scenario: `${found.label}/${e.scenario ?? found.env.scenario(found.id)}` } : e;
  }

  describe(): string {
    const parts = this.sources.map((s) => `- ${s.label}: ${s.env.describe?.() ?? s.env.info().reward}`);
    return [
      `A benchmark composed of ${this.sources.length} sources; one memory serves all of them. Task ids and scenarios start with their source. The score is ${SOURCE_WEIGHTING_NOTE}.`,
      ...parts,
    ].join('\n');
  }

  guide(): EnvironmentGuide {
    const guides = this.sources.map((s) => ({ label: s.label, g: s.env.guide?.() }));
    const each = (pick: (g: EnvironmentGuide) => string) =>
      guides.map(({ label, g }) => `[${label}] ${g ? pick(g) : '(not stated)'}`).join('\n');
    return {
      reward: `${SOURCE_WEIGHTING_NOTE}. Per source:\n${each((g) => g.reward)}`,
      schema: each((g) => g.schema),
      reader: each((g) => g.reader),
      agentAnswers: guides.every(({ g }) => g?.agentAnswers ?? false),
    };
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.sources.map((s) => s.env.close?.()));
  }
}

function prefixWorld(label: string, w: World): World {
  return {
    ...w,
    id: `${label}/${w.id}`,
    episodes: w.episodes.map((e) => ({ ...e, taskId: `${label}/${e.taskId}` })),
    tasks: w.tasks.map((t) => ({ ...t, taskId: `${label}/${t.taskId}` })),
    ...(w.taskTimes ? { taskTimes: new Map([...w.taskTimes].map(([id, t]) => [`${label}/${id}`, t])) } : {}),
  };
}

export function composeEnvironments(sources: ComposedSource[]): Environment {
  if (sources.length < 2) throw new Error('a composed environment needs at least two sources');
  if (sources.length > MAX_SOURCES)
    throw new Error(`a composed environment takes at most ${MAX_SOURCES} sources; got ${sources.length}`);
  return new ComposedEnvironment(sources);
}

/** The name a composed environment's source records (EnvSource.name); its spec lists the parts. */
export const COMPOSED = 'composed';

/**
 * A definition that opens every part (each already resolved by the registry, so a part that fails to resolve is
 * named before anything loads) and composes them. A part that fails to load is named by its place and spec.
 */
export function composedDefinition(parts: { spec: string; resolved: OpenableEnvironment }[]): EnvironmentDefinition {
  return {
    name: COMPOSED,
    summary: `one benchmark of several: ${parts.map((p) => p.spec).join(', ')}`,
    load: async (context) => {
      const { arg: _arg, ...rest } = context;
      const opened: Environment[] = [];
      try {
        for (const [i, p] of parts.entries()) {
          try {
            opened.push(await openEnvironment(p.resolved, rest));
          } catch (err) {
            throw new Error(`source ${i + 1} of ${parts.length} (${p.spec}): ${(err as Error).message}`, {
              cause: err,
            });
          }
        }
      } catch (err) {
        await Promise.allSettled(opened.map((e) => e.close?.()));
        throw err;
      }
      const labels = sourceLabels(opened.map((e) => e.info().name));
      return composeEnvironments(opened.map((env, i) => ({ label: labels[i] as string, env })));
    },
  };
}
