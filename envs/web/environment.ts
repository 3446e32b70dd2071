// The web environment: five local mini-sites (sites/) served on 127.0.0.1, Debian's Chromium through Playwright
// (browser/), an execution agent (the offline reference agent, or a WebVoyager-style model agent when
// AUTOMEMO_EXECUTOR_MODEL is set) and checkers that read the site's database or the answer. One world per split:
// on test, the memory learns from every training episode and is asked about the test tasks; on train (what the
// search uses), it learns from the update batch and is asked about the validation batch. Update episodes are the
// agent's own runs without memory, collected once and stored with their screenshots.
import { mapLimit } from '../../engine/evaluate/limit.ts';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EpisodeRecorder, MemoryPayload, PartialRecorder } from '../../memo-programs/contract.ts';
import { defaultCacheDir, EpisodeStore } from '../../engine/evaluate/episode-store.ts';
import type { ResolvedModels } from '../../engine/llm/models.ts';
import { DEFAULT_BUDGET, type PayloadBudget } from '../../sandbox/payload.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import { type Environment, type EnvironmentInfo, InfraError, type Split, type TaskOutcome, type World } from '../../engine/environment/contract.ts';
import type { WebAgent, WebTaskInput } from './agents/agent.ts';
import { ModelAgent } from './agents/model/agent.ts';
import { ReferenceAgent } from './agents/reference/agent.ts';
import { SOLVERS } from './agents/reference/solvers/index.ts';
import { closeBrowsers } from './browser/browser.ts';
import { buildCatalog, type Role, type WebTask } from './catalog.ts';
import { type EpisodeResult, runEpisode, type ScreenshotPolicy } from './episode.ts';
import { episodeRecord, partialRecord, trajectoryOf } from './records.ts';
import { MAX_STEPS } from './session.ts';
import { SITES } from './sites/index.ts';
import type { WebSite } from './site.ts';

/** Bump when the episode format changes. Stored episodes are also keyed by the source of this folder. */
export const WEB_VERSION = 1;

let sourceHashValue: string | undefined;
/** A hash of the environment's own source: a changed site, template or agent collects its episodes again. */
function sourceHash(): string {
  if (sourceHashValue) return sourceHashValue;
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|txt)$/.test(name)) h.update(name).update(readFileSync(p));
    }
  };
  walk(dirname(fileURLToPath(import.meta.url)));
  sourceHashValue = h.digest('hex').slice(0, 16);
  return sourceHashValue;
}

export interface WebOptions {
  models: Pick<ResolvedModels, 'executor'>;
  images: ImageStore;
  seed?: number;
  /** Instances per template (default 15: 2 update, 1 validation and 12 test tasks each). */
  instances?: number;
  trainShare?: number;
  /** Only these sites (default all). */
  sites?: string[];
  budget?: PayloadBudget;
  agent?: WebAgent;
  /** Default: every step for a model agent (it looks at them), the final page for the reference agent. */
  screenshots?: ScreenshotPolicy;
  /** Episodes collected at once (browser contexts). Default 4. */
  concurrency?: number;
  episodeStore?: EpisodeStore;
  onNote?: (message: string) => void;
}

export class WebEnvironment implements Environment {
  readonly tasks: WebTask[];
  readonly sites: WebSite[];
  private readonly byId = new Map<string, WebTask>();
  private readonly agent: WebAgent;
  private readonly seed: number;
  private readonly instances: number;
  private readonly trainShare: number;
  private readonly budget: PayloadBudget;
  private readonly store: EpisodeStore;
  private readonly screenshots: ScreenshotPolicy;
  private readonly catalogHash: string;
  private episodes: Promise<Map<string, EpisodeRecorder>> | undefined;

  private constructor(private readonly options: WebOptions) {
    const names = options.sites ?? SITES.map((s) => s.name);
    const unknown = names.filter((n) => !SITES.some((s) => s.name === n));
    if (unknown.length) throw new Error(`unknown web site${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; available: ${SITES.map((s) => s.name).join(', ')}`);
    this.sites = SITES.filter((s) => names.includes(s.name));
    this.seed = options.seed ?? 0;
    this.instances = options.instances ?? 15;
    this.trainShare = options.trainShare ?? 0.2;
    this.tasks = buildCatalog(this.sites, { seed: this.seed, instances: this.instances, trainShare: this.trainShare });
    for (const t of this.tasks) this.byId.set(t.id, t);
    this.budget = options.budget ?? DEFAULT_BUDGET;
    this.store = options.episodeStore ?? new EpisodeStore();
    this.agent = options.agent ?? (options.models.executor ? new ModelAgent(options.models.executor) : new ReferenceAgent(SOLVERS));
    this.screenshots = options.screenshots ?? (this.agent.mode === 'model' ? 'every' : 'final');
    const h = createHash('sha256');
    for (const t of this.tasks) h.update(`${t.id}\u0000${t.role}\u0000${t.spec.instruction}\u0000${t.spec.start}\u0000`);
    this.catalogHash = h.digest('hex').slice(0, 16);
  }

  static async load(options: WebOptions): Promise<WebEnvironment> {
    return new WebEnvironment(options);
  }

  info(): EnvironmentInfo {
    const byRole = (r: Role) => this.tasks.filter((t) => t.role === r).length;
    return {
      name: 'web',
      mode: this.agent.mode,
      reward: `task success (site state or answer, checked programmatically) by ${this.agent.id}`,
      budget: this.budget,
      agentId: this.agent.id,
      deterministic: this.agent.deterministic,
      data: {
        version: WEB_VERSION,
        seed: this.seed,
        instancesPerTemplate: this.instances,
        trainShare: this.trainShare,
        sites: this.sites.map((s) => ({ name: s.name, templates: s.templates.map((t) => t.id) })),
        split: { update: byRole('update'), validation: byRole('validation'), test: byRole('test') },
        catalogHash: this.catalogHash,
        screenshots: this.screenshots,
      },
    };
  }

  task(taskId: string): WebTask {
    const t = this.byId.get(taskId);
    if (!t) throw new Error(`unknown web task ${taskId}`);
    return t;
  }

  /** Runs the agent on a task; a failure of the machinery (browser, server, model API) is an InfraError. */
  async episode(t: WebTask, payload: MemoryPayload, agent: WebAgent = this.agent, screenshots = this.screenshots): Promise<EpisodeResult> {
    const input: WebTaskInput = { taskId: t.id, site: t.site.name, siteTitle: t.site.title, instruction: t.spec.instruction };
    try {
      return await runEpisode(t.site, t.spec, agent, input, payload, { seed: this.seed, screenshots });
    } catch (err) {
      if (err instanceof InfraError) throw err;
      throw new InfraError(`web episode of ${t.id} failed: ${(err as Error).message.split('\n')[0]}`, { cause: err });
    }
  }

  trainingEpisodes(): Promise<Map<string, EpisodeRecorder>> {
    this.episodes ??= this.collect().catch((err) => {
      this.episodes = undefined;
      throw err;
    });
    return this.episodes;
  }

  private screensDir(): string {
    return join(defaultCacheDir(), 'web-screens');
  }

  private async collect(): Promise<Map<string, EpisodeRecorder>> {
    const train = this.tasks.filter((t) => t.role !== 'test');
    const key = this.store.key({ env: 'web', split: 'train', agentId: this.agent.id, data: { version: WEB_VERSION, hash: this.catalogHash, source: sourceHash(), screenshots: this.screenshots } });
    const list = await this.store.getOrCollect<EpisodeRecorder[]>(
      key,
      async () => {
        this.options.onNote?.(`collecting ${train.length} training episodes with ${this.agent.id} (no memory, ${this.options.concurrency ?? 4} browser contexts); they are stored for later runs`);
        return mapLimit(train, this.options.concurrency ?? 4, (t) => this.collectOne(t));
      },
      this.options.onNote,
    );
    // Stored episodes refer to screenshots by content id: put the bytes back into this process's image store.
    for (const ep of list) {
      for (const step of ep.steps) {
        for (const [i, ref] of (step.observation?.images ?? []).entries()) {
          const file = join(this.screensDir(), `${ref.id}.jpg`);
          if (this.options.images.has(ref.id)) continue;
          if (existsSync(file)) await this.options.images.put(readFileSync(file), { mime: 'image/jpeg', ...(ref.caption ? { caption: ref.caption } : {}) });
          else (step.observation?.images as unknown[]).splice(i, 1);
        }
      }
    }
    return new Map(list.map((ep) => [ep.taskId, ep]));
  }

  private async collectOne(t: WebTask): Promise<EpisodeRecorder> {
    for (let attempt = 1; ; attempt++) {
      try {
        const r = await this.episode(t, { text: '', images: [] });
        const rec = await episodeRecord(partialRecord(t), r, this.options.images);
        mkdirSync(this.screensDir(), { recursive: true });
        for (const step of rec.steps) for (const ref of step.observation?.images ?? []) writeFileSync(join(this.screensDir(), `${ref.id}.jpg`), this.options.images.get(ref.id).bytes);
        return rec;
      } catch (err) {
        if (!(err instanceof InfraError) || attempt >= 3) throw new Error(`collecting the training episode of ${t.id} failed after ${attempt} attempt(s): ${(err as Error).message}`, { cause: err });
        this.options.onNote?.(`training episode ${t.id}: ${(err as Error).message}; retrying`);
      }
    }
  }

  async worlds(split: Split): Promise<World[]> {
    const episodes = await this.trainingEpisodes();
    const learn = this.tasks.filter((t) => (split === 'test' ? t.role !== 'test' : t.role === 'update'));
    const ask = this.tasks.filter((t) => (split === 'test' ? t.role === 'test' : t.role === 'validation'));
    return [
      {
        id: `web-${split}`,
        episodes: learn.map((t) => episodes.get(t.id)).filter((x): x is EpisodeRecorder => x !== undefined),
        tasks: ask.map(partialRecord),
      },
    ];
  }

  async run(task: PartialRecorder, payload: MemoryPayload): Promise<TaskOutcome> {
    const t = this.task(task.taskId);
    const r = await this.episode(t, payload);
    const trajectory = await trajectoryOf(r, this.options.images);
    return {
      reward: r.check.correct ? 1 : 0,
      success: r.check.correct,
      metrics: { steps: r.steps.length, memoryReplay: r.memoryUse.startsWith('replayed') ? 1 : 0, blockedRequests: r.blocked.length },
      trajectory,
      note: `${r.check.note}; memory: ${r.memoryUse}`,
    };
  }

  async samples(count: number): Promise<{ episodes: EpisodeRecorder[]; tasks: PartialRecorder[] }> {
    const episodes = [...(await this.trainingEpisodes()).values()].slice(0, count);
    const tasks = this.tasks.filter((t) => t.role === 'validation').slice(0, count).map(partialRecord);
    return { episodes, tasks };
  }

  scenario(taskId: string): string {
    const t = this.byId.get(taskId);
    return t ? `${t.site.name}/${t.template.id}` : 'unknown';
  }

  explain(taskId: string): string | undefined {
    const t = this.byId.get(taskId);
    if (!t) return undefined;
    return `${t.site.name}/${t.template.id}: ${t.spec.instruction} | expected: ${t.spec.expected} | correct procedure: ${t.spec.oracle.join(' ; ')} | quirk: ${t.template.quirk}`;
  }

  describe(): string {
    return (
      `Web navigation on local mini-sites: each task names a site and asks for an answer or a change (an order, a ` +
      `booking, a ticket). The agent sees the page as an accessibility snapshot with element refs and a screenshot ` +
      `with numbered boxes, and acts one step at a time (Click, Type, Select, Scroll, GoBack, ANSWER), at most ` +
      `${MAX_STEPS} steps. Checkers read the site's database (with a guard against changes outside the task) or the ` +
      `answer. Tasks come in templates: siblings share a procedure (which control, which format, which detour) but ` +
      `never an answer. Episodes record every action with its element's role and name ('Click [e12] link "Refine"'), ` +
      `the page after it and success. Sites: ` +
      this.sites.map((s) => `${s.title} — ${s.description}`).join(' ')
    );
  }

  /** A payload holding the correct procedure of a training sibling (the oracle figure of the benchmark). */
  oraclePayload(taskId: string): MemoryPayload {
    const t = this.task(taskId);
    const sibling = this.tasks.find((x) => x.role !== 'test' && x.site === t.site && x.template === t.template) ?? t;
    const lines = [`Task: ${sibling.spec.instruction}`, 'Outcome: SUCCESS', 'Actions:', ...sibling.spec.oracle.map((a, i) => `  ${i + 1}. ${a}`)];
    return { text: lines.join('\n'), images: [] };
  }

  async close(): Promise<void> {
    await closeBrowsers();
  }
}
