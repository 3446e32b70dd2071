// The visual reasoning environment: rendered task families (see families/), tools over pixels (tools/), an
// execution agent (the offline reference agent, or a model agent when AUTOMEMO_EXECUTOR_MODEL is set) and exact
// checkers. One world per split: on test, the memory learns from every training episode and is asked about the
// test tasks; on train (what the search uses), it learns from the update batch and is asked about the validation
// batch. Update episodes are the agent's own runs without memory, collected once and stored.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EpisodeRecorder, MemoryPayload, PartialRecorder } from '../../memo-programs/contract.ts';
import { EpisodeStore } from '../../engine/evaluate/episode-store.ts';
import type { ResolvedModels } from '../../engine/llm/models.ts';
import { DEFAULT_BUDGET, type PayloadBudget } from '../../sandbox/payload.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import { type Environment, type EnvironmentInfo, InfraError, type Split, type TaskOutcome, type Trajectory, type World } from '../../engine/environment/contract.ts';
import type { AgentRun, VisualAgent } from './agents/agent.ts';
import { ReferenceAgent } from './agents/reference/agent.ts';
import { SOLVERS } from './agents/reference/solvers/index.ts';
import { ModelAgent } from './agents/model/agent.ts';
import { buildCatalog, buildWorld, type CatalogEntry, type Role } from './catalog.ts';
import { checkAnswer } from './check.ts';
import { episodeRecord, partialRecord } from './episodes.ts';
import { FAMILIES } from './families/index.ts';
import type { Family } from './task.ts';
import { parseCall } from './tools/grammar.ts';
import { COMMON_TOOL_NAMES, TOOL_NAMES, TOOLS } from './tools/index.ts';
import { closeVisualOcr } from './tools/ocr.ts';
import type { ToolWorld } from './tools/types.ts';
import { zoom } from './tools/zoom.ts';

/** Bump when the episode format changes. Stored episodes are also keyed by the source of this folder (below). */
export const VISUAL_VERSION = 1;

/** A hash of the environment's own source (read once per process): a changed generator, tool or agent collects its episodes again. */
let sourceHashValue: string | undefined;
function sourceHash(): string {
  sourceHashValue ??= hashSource();
  return sourceHashValue;
}

function hashCatalog(entries: CatalogEntry[]): string {
  const h = createHash('sha256');
  for (const e of entries) {
    h.update(`${e.task.id}\u0000${e.role}\u0000${e.task.instruction}\u0000`);
    for (const img of e.task.images) h.update(img.png);
  }
  return h.digest('hex').slice(0, 16);
}

function hashSource(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|txt)$/.test(name)) h.update(name).update(readFileSync(p));
    }
  };
  walk(dirname(fileURLToPath(import.meta.url)));
  return h.digest('hex').slice(0, 16);
}

export interface VisualOptions {
  models: Pick<ResolvedModels, 'executor'>;
  images: ImageStore;
  seed?: number;
  /** Instances per template (default 20: 2 update, 2 validation and 16 test tasks each). */
  instances?: number;
  trainShare?: number;
  /** Only these families (default all). */
  families?: string[];
  budget?: PayloadBudget;
  /** The execution agent (default: the model agent when an executor model is configured, else the reference agent). */
  agent?: VisualAgent;
  /** Where collected episodes are stored (default the cache folder). */
  episodeStore?: EpisodeStore;
  onNote?: (message: string) => void;
}

export class VisualEnvironment implements Environment {
  readonly entries: CatalogEntry[];
  private readonly byId = new Map<string, CatalogEntry>();
  private readonly families: Family[];
  private readonly world: ToolWorld;
  private readonly agent: VisualAgent;
  private readonly images: ImageStore;
  private readonly budget: PayloadBudget;
  private readonly seed: number;
  private readonly instances: number;
  private readonly trainShare: number;
  private readonly store: EpisodeStore;
  /** Hash of every rendered task and its role: part of the episode key and the run record (computed once). */
  private readonly catalogHash: string;
  private readonly partials = new Map<string, Promise<PartialRecorder>>();
  private episodes: Promise<Map<string, EpisodeRecorder>> | undefined;

  private constructor(private readonly options: VisualOptions) {
    const names = options.families ?? FAMILIES.map((f) => f.name);
    const unknown = names.filter((n) => !FAMILIES.some((f) => f.name === n));
    if (unknown.length) throw new Error(`unknown visual famil${unknown.length > 1 ? 'ies' : 'y'} ${unknown.join(', ')}; available: ${FAMILIES.map((f) => f.name).join(', ')}`);
    this.families = FAMILIES.filter((f) => names.includes(f.name));
    this.seed = options.seed ?? 0;
    this.instances = options.instances ?? 20;
    this.trainShare = options.trainShare ?? 0.2;
    this.entries = buildCatalog(this.families, { seed: this.seed, instances: this.instances, trainShare: this.trainShare });
    for (const e of this.entries) this.byId.set(e.task.id, e);
    this.world = buildWorld(this.families, this.seed);
    this.images = options.images;
    this.budget = options.budget ?? DEFAULT_BUDGET;
    this.store = options.episodeStore ?? new EpisodeStore();
    this.catalogHash = hashCatalog(this.entries);
    this.agent =
      options.agent ?? (options.models.executor ? new ModelAgent(options.models.executor, { images: options.images }) : new ReferenceAgent(SOLVERS));
  }

  static async load(options: VisualOptions): Promise<VisualEnvironment> {
    return new VisualEnvironment(options);
  }

  get offline(): boolean {
    return this.agent.mode === 'offline';
  }

  info(): EnvironmentInfo {
    const byRole = (r: Role) => this.entries.filter((e) => e.role === r).length;
    return {
      name: 'visual',
      mode: this.offline ? 'offline' : 'model',
      reward: `exact answer (normalized text, numeric tolerance, letter) by ${this.agent.id}`,
      budget: this.budget,
      agentId: this.agent.id,
      deterministic: this.agent.deterministic,
      data: {
        version: VISUAL_VERSION,
        seed: this.seed,
        instancesPerTemplate: this.instances,
        trainShare: this.trainShare,
        families: this.families.map((f) => ({ name: f.name, templates: f.templates.map((t) => t.id) })),
        split: { update: byRole('update'), validation: byRole('validation'), test: byRole('test') },
        catalogHash: this.catalogHash,
      },
    };
  }

  /** The tools a family's tasks use (the common ones plus its own). */
  toolsFor(family: string): string[] {
    const f = this.families.find((x) => x.name === family);
    return [...COMMON_TOOL_NAMES, ...(f?.tools ?? [])];
  }

  entry(taskId: string): CatalogEntry {
    const e = this.byId.get(taskId);
    if (!e) throw new Error(`unknown visual task ${taskId}`);
    return e;
  }

  /** What a program sees of a task before it runs (made once per task: its images enter the store once). */
  partial(e: CatalogEntry): Promise<PartialRecorder> {
    let p = this.partials.get(e.task.id);
    if (!p) {
      p = partialRecord(e.task, this.toolsFor(e.task.family), this.images);
      p.catch(() => this.partials.delete(e.task.id));
      this.partials.set(e.task.id, p);
    }
    return p;
  }

  /** Training episodes (update and validation tasks run without memory), collected once and stored. */
  trainingEpisodes(): Promise<Map<string, EpisodeRecorder>> {
    this.episodes ??= this.collect().catch((err) => {
      this.episodes = undefined;
      throw err;
    });
    return this.episodes;
  }

  private async collect(): Promise<Map<string, EpisodeRecorder>> {
    const train = this.entries.filter((e) => e.role !== 'test');
    const key = this.store.key({ env: 'visual', split: 'train', agentId: this.agent.id, data: { version: VISUAL_VERSION, hash: this.catalogHash, source: sourceHash() } });
    const list = await this.store.getOrCollect<EpisodeRecorder[]>(
      key,
      async () => {
        this.options.onNote?.(`collecting ${train.length} training episodes with ${this.agent.id} (no memory); they are stored for later runs`);
        const out: EpisodeRecorder[] = [];
        // Two at a time: OCR runs on two worker threads.
        for (let i = 0; i < train.length; i += 2) {
          out.push(...(await Promise.all(train.slice(i, i + 2).map((e) => this.collectOne(e)))));
        }
        return out;
      },
      this.options.onNote,
    );
    // Stored episodes refer to images by content id: put the bytes back into this process's store.
    for (const e of train) await this.partial(e);
    for (const ep of list) await this.restoreStepImages(ep);
    return new Map(list.map((ep) => [ep.taskId, ep]));
  }

  /** One training episode; machinery failures are retried twice, then the collection stops naming the task. */
  private async collectOne(e: CatalogEntry): Promise<EpisodeRecorder> {
    const partial = await this.partial(e);
    for (let attempt = 1; ; attempt++) {
      try {
        const run = await this.runAgent(e, { text: '', images: [] });
        return await episodeRecord(partial, run, checkAnswer(e.task.answer, run.answer), this.images);
      } catch (err) {
        if (!(err instanceof InfraError) || attempt >= 3) throw new Error(`collecting the training episode of ${e.task.id} failed after ${attempt} attempt(s): ${(err as Error).message}`, { cause: err });
        this.options.onNote?.(`training episode ${e.task.id}: ${(err as Error).message}; retrying`);
      }
    }
  }

  private async restoreStepImages(ep: EpisodeRecorder): Promise<void> {
    const e = this.byId.get(ep.taskId);
    if (!e) return;
    for (const step of ep.steps) {
      if (!step.observation?.images?.length) continue;
      const c = parseCall(step.action, TOOL_NAMES);
      if (c?.name !== 'zoom') continue;
      const r = await zoom.run(c, { images: e.task.images, world: this.world });
      if (r.image) step.observation.images = [await this.images.put(r.image, { mime: 'image/png', caption: `result of ${step.action}` })];
    }
  }

  async worlds(split: Split): Promise<World[]> {
    const episodes = await this.trainingEpisodes();
    const learn = this.entries.filter((e) => (split === 'test' ? e.role !== 'test' : e.role === 'update'));
    const ask = this.entries.filter((e) => (split === 'test' ? e.role === 'test' : e.role === 'validation'));
    return [
      {
        id: `visual-${split}`,
        episodes: learn.map((e) => episodes.get(e.task.id)).filter((x): x is EpisodeRecorder => x !== undefined),
        tasks: await Promise.all(ask.map((e) => this.partial(e))),
      },
    ];
  }

  private async runAgent(e: CatalogEntry, payload: MemoryPayload): Promise<AgentRun> {
    try {
      return await this.agent.run({ taskId: e.task.id, instruction: e.task.instruction, images: e.task.images }, payload, this.world);
    } catch (err) {
      if (err instanceof InfraError) throw err;
      // A tool that crashed (OCR worker, image decoder) is the machinery failing, not the memory.
      throw new InfraError(`visual agent failed on ${e.task.id}: ${(err as Error).message}`, { cause: err });
    }
  }

  async run(task: PartialRecorder, payload: MemoryPayload): Promise<TaskOutcome> {
    const e = this.entry(task.taskId);
    const run = await this.runAgent(e, payload);
    const check = checkAnswer(e.task.answer, run.answer);
    const steps: Trajectory['steps'] = [];
    for (const s of run.steps) {
      const img = s.image ? await this.images.put(s.image, { mime: 'image/png', caption: `result of ${s.action}` }) : undefined;
      steps.push({
        action: s.action,
        ...(s.thought ? { thought: s.thought } : {}),
        ...(s.result !== undefined || s.error ? { observation: s.error ? `error: ${s.error}` : s.result } : {}),
        ...(img ? { images: [img.id] } : {}),
      });
    }
    const taskImages = (task.initial.images ?? []).map((i) => i.id);
    return {
      reward: check.correct ? 1 : 0,
      success: check.correct,
      metrics: { turns: run.steps.length, memoryReplay: run.memoryUse.startsWith('replayed') ? 1 : 0 },
      trajectory: { ...(run.answer !== undefined ? { answer: run.answer } : {}), steps, images: taskImages, ...(run.tokens ? { tokens: run.tokens } : {}) },
      note: `${check.note}; memory: ${run.memoryUse}`,
    };
  }

  async samples(count: number): Promise<{ episodes: EpisodeRecorder[]; tasks: PartialRecorder[] }> {
    const episodes = [...(await this.trainingEpisodes()).values()].slice(0, count);
    const tasks = await Promise.all(this.entries.filter((e) => e.role === 'validation').slice(0, count).map((e) => this.partial(e)));
    return { episodes, tasks };
  }

  scenario(taskId: string): string {
    const e = this.byId.get(taskId);
    return e ? `${e.task.family}/${e.task.template}` : 'unknown';
  }

  explain(taskId: string): string | undefined {
    const e = this.byId.get(taskId);
    if (!e) return undefined;
    return `${e.task.family}/${e.task.template}: ${e.task.instruction} | answer: ${JSON.stringify(e.task.answer)} | correct procedure: ${e.task.oracle.join(' ; ')} | quirk: ${e.quirk}`;
  }

  describe(): string {
    const tools = TOOLS.map((t) => `${t.usage} — ${t.summary}`).join('; ');
    return (
      'Visual reasoning with tools: each task is an image (or a few) rendered by the environment and a question. ' +
      'The agent uses one tool per turn, at most 8 turns, and ends with <answer>…</answer>; an exact checker scores ' +
      'the answer. Tasks come in templates: siblings share a procedure (where to look, which tool, which convention) ' +
      'but never an answer. Episodes record every tool call as a step action ("ocr [x1,y1,x2,y2]", boxes in 0–999 ' +
      `coordinates) with its result, the final answer and success. Tools: ${tools}. Families: ` +
      this.families.map((f) => f.description).join(' ')
    );
  }

  /** A payload holding the correct procedure of a training sibling (the oracle figure of the benchmark). */
  oraclePayload(taskId: string): MemoryPayload {
    const e = this.entry(taskId);
    const sibling = this.entries.find((x) => x.role !== 'test' && x.task.family === e.task.family && x.task.template === e.task.template) ?? e;
    const lines = [`Task: ${sibling.task.instruction}`, 'Outcome: SUCCESS', 'Actions:', ...sibling.task.oracle.map((a, i) => `  ${i + 1}. ${a}`)];
    return { text: lines.join('\n'), images: [] };
  }

  async close(): Promise<void> {
    await closeVisualOcr();
  }
}
