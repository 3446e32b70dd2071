// The model meta agent (the `meta` role, any OpenAI-compatible endpoint). A child of the no-memory root is
// written from the environment's description (initialization). Any other child: the evidence of the parent's
// latest evaluation is grouped by scenario, each cluster is analysed on its own (so heterogeneous tasks do not
// wash each other out), one proposal is synthesised, and the next version is generated. Repairs get the quick
// examination report and the failing case. Model output is validated: malformed JSON or a reply with no program is
// asked for again, at most twice.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { libReference } from '../../../memo-programs/lib-reference.ts';
import { contractPath } from '../../../sandbox/paths.ts';
import type { QuickExamReport } from '../../../sandbox/quick-exam.ts';
import { clientFor } from '../../llm/client.ts';
import { priceOf } from '../../llm/ledger.ts';
import type { RoleModel } from '../../llm/models.ts';
import { fillPrompt, readPrompt } from '../../llm/prompt-file.ts';
import { clusterTasks } from '../clue/cluster-tasks.ts';
import { emptyPool } from '../clue/pool.ts';
import { type Cluster, clusters, renderCluster } from '../evidence.ts';
import { type FeedbackCluster, type MetaAgent, MetaAgentError, type MetaFeedback, type ParentContext, type ProgramFiles, type Proposal } from '../types.ts';
import { extractFiles, extractJson } from './extract.ts';
import { type Content, imageParts, withImages } from './image-parts.ts';
import { renderEpisode, renderInspirations, renderTried, renderUpdateEpisodes } from './render.ts';
import { isSafeRelPath } from '../../../foundation/safe-path.ts';

const Analysis = z.object({
  relevance: z.array(z.object({ taskId: z.string(), label: z.enum(['helpful', 'missing', 'irrelevant', 'redundant', 'misleading']), why: z.string().optional() })).default([]),
  weaknesses: z.array(z.string()).default([]),
  suggestions: z.array(z.object({ priority: z.number(), change: z.string() })).min(1),
});
const Synthesis = z.object({ summary: z.string(), changes: z.array(z.object({ change: z.string(), why: z.string().optional(), clusters: z.array(z.string()).optional() })).min(1) });

const prompt = (name: string) => readPrompt(import.meta.url, `./prompts/${name}.txt`);
const FOCUS_FIX = 'Then name the structural weaknesses of the program that explain the failures, and suggest concrete code changes, most important first.';
const FOCUS_PROTECT =
  'This cluster has no failed task: under weaknesses, say what the program does that these tasks depend on (what the ' +
  'next version must protect); suggest only changes that cannot hurt it (keeping it as it is counts as a suggestion).';

/** The request with a note appended to its text. */
function withText(user: Content, note: string): Content {
  if (typeof user === 'string') return user + note;
  return user.map((p, i) => (i === 0 && p.type === 'text' ? { ...p, text: p.text + note } : p));
}
const MAX_RETRIES = 2;

function renderProgram(files: ProgramFiles): string {
  return Object.entries(files)
    .sort(([a], [b]) => (a === 'index.ts' ? -1 : b === 'index.ts' ? 1 : a.localeCompare(b)))
    .map(([name, text]) => `\`\`\`ts\n// file: ${name}\n${text}\`\`\``)
    .join('\n\n');
}

/** How a step's evidence is grouped for analysis: CluE's model-managed pool, or the environment's metadata. */
export type ClusteringMode = 'clue' | 'metadata';

export class ModelMetaAgent implements MetaAgent {
  readonly mode = 'model' as const;

  constructor(
    private readonly model: RoleModel,
    private readonly clustering: ClusteringMode = 'clue',
  ) {}

  /** CluE's clustering of the parent's scored tasks (or the metadata groups), reported to the search. */
  private async groups(ctx: ParentContext): Promise<Cluster[]> {
    const scored = (ctx.evaluation?.tasks ?? []).filter((t) => t.reward !== null);
    const pool = ctx.cluePool ?? emptyPool();
    const outcome =
      this.clustering === 'clue'
        ? await clusterTasks(
            pool,
            scored.map((t) => ({ taskId: t.taskId, scenario: t.scenario, text: ctx.explain(t.taskId) ?? `${t.scenario} task ${t.taskId}` })),
            (purpose, user, schema) => this.ask(ctx, purpose, user, this.parseJson(schema)),
          )
        : undefined;
    const groupOf = outcome?.groupOf ?? {};
    if (outcome) {
      const fresh = Object.fromEntries(Object.entries(outcome.pool.summaries).filter(([id]) => !Object.hasOwn(pool.summaries, id)));
      const assignment = outcome.source === 'model' ? Object.fromEntries(scored.map((t) => [t.taskId, outcome.pool.assignment[t.taskId] ?? ''])) : outcome.groupOf;
      ctx.onClusters?.({ source: outcome.source, pool: outcome.pool, assignment, summaries: fresh, notes: outcome.notes });
    }
    return clusters(ctx, (t) => groupOf[t.taskId] ?? t.scenario);
  }

  private async chat(ctx: ParentContext, purpose: string, user: Content, json: boolean): Promise<string> {
    ctx.beforeModelCall?.();
    const started = Date.now();
    try {
      const res = await clientFor(this.model).chat.completions.create({
        model: this.model.model,
        messages: [
          { role: 'system', content: prompt('system') },
          { role: 'user', content: user },
        ],
        temperature: 0.7,
        max_tokens: json ? 2000 : 8000,
        ...(json ? { response_format: { type: 'json_object' as const } } : {}),
      });
      const text = res.choices[0]?.message?.content ?? '';
      const pt = res.usage?.prompt_tokens ?? Math.ceil(JSON.stringify(user).length / 4);
      const ct = res.usage?.completion_tokens ?? Math.ceil(text.length / 4);
      // Endpoints that cache prompt prefixes say how much of this prompt they served from the cache.
      const cached = res.usage?.prompt_tokens_details?.cached_tokens;
      const cachedTokens = typeof cached === 'number' && Number.isFinite(cached) && cached >= 0 ? Math.min(cached, pt) : undefined;
      ctx.onModelCall?.({
        purpose,
        model: this.model.model,
        promptTokens: pt,
        ...(cachedTokens !== undefined ? { cachedTokens } : {}),
        completionTokens: ct,
        usd: priceOf(this.model, pt, ct, cachedTokens),
        ms: Date.now() - started,
        ok: true,
      });
      return text;
    } catch (err) {
      const message = (err as Error).message;
      ctx.onModelCall?.({ purpose, model: this.model.model, promptTokens: 0, completionTokens: 0, usd: null, ms: Date.now() - started, ok: false, error: message });
      throw new MetaAgentError(`the meta model failed during ${purpose}: ${message}`, { cause: err });
    }
  }

  /** Asks until the reply parses (at most 1 + MAX_RETRIES times), telling the model what was wrong. */
  private async ask<T>(ctx: ParentContext, purpose: string, user: Content, parse: (reply: string) => T): Promise<T> {
    let request = user;
    let lastError = '';
    for (let attempt = 0; attempt <= MAX_RETRIES; attempt++) {
      const reply = await this.chat(ctx, attempt ? `${purpose} (retry ${attempt})` : purpose, request, purpose !== 'generation' && purpose !== 'repair' && purpose !== 'initialization');
      try {
        return parse(reply);
      } catch (err) {
        lastError = (err as Error).message;
        request = withText(user, `\n\nYour previous reply could not be used: ${lastError}. Reply again, exactly in the format asked.`);
      }
    }
    throw new MetaAgentError(`the meta model's ${purpose} reply could not be used after ${MAX_RETRIES + 1} tries: ${lastError}`);
  }

  private parseJson<T>(schema: z.ZodType<T>) {
    return (reply: string): T => {
      let raw: unknown;
      try {
        raw = extractJson(reply);
      } catch (err) {
        throw new Error(`not valid JSON (${(err as Error).message})`, { cause: err });
      }
      const r = schema.safeParse(raw);
      if (!r.success) throw new Error(`JSON does not match the requested shape: ${z.prettifyError(r.error)}`);
      return r.data;
    };
  }

  private parseProgram(base: ProgramFiles) {
    return (reply: string): ProgramFiles => {
      const got = extractFiles(reply);
      if (Object.keys(got).length === 0) throw new Error('no program in the reply: return files as fenced ```ts blocks starting with `// file: <name>.ts`');
      // File names become paths in the run folder: only plain relative names, never `..` or an absolute path.
      const unsafe = Object.keys(got).filter((name) => !name.endsWith('.ts') || !isSafeRelPath(name));
      if (unsafe.length) throw new Error(`file names must be plain relative paths ending in .ts (letters, digits, ".", "_", "-"); not ${unsafe.map((n) => JSON.stringify(n.slice(0, 100))).join(', ')}`);
      const merged = { ...base, ...got };
      if (!merged['index.ts']) throw new Error('the program has no index.ts');
      return merged;
    };
  }

  /**
   * The part every prompt of a step shares, first, so an endpoint can cache it: the environment, its reward rule and
   * data, the sandbox, the contract and the helpers. The part that differs (cluster, evidence, proposal) comes last.
   */
  private context(ctx: ParentContext): string {
    const g = ctx.guide;
    return fillPrompt(prompt('context'), {
      environment: ctx.envDescription,
      reward: g?.reward ?? ctx.env.reward,
      schema: g?.schema ?? 'see the contract below (EpisodeRecorder for update, PartialRecorder for retrieve).',
      reader: g?.reader ?? (ctx.env.mode === 'offline' ? 'an offline agent; the environment does not say how it reads a payload.' : 'a model agent gets the payload before its first turn.'),
      roles: ctx.roles ?? 'not stated',
      budget: `${ctx.env.budget.maxChars} characters and ${ctx.env.budget.maxImages} images per retrieve`,
      sandbox: prompt('sandbox'),
      contract: readFileSync(contractPath, 'utf8'),
      helpers: libReference(),
      episode: ctx.exampleEpisode ? renderEpisode(ctx.exampleEpisode) : '(none available)',
      episodes: renderUpdateEpisodes(ctx.updateEpisodes ?? []),
    });
  }

  private program(about: string, files: ProgramFiles): string {
    return fillPrompt(prompt('program'), { about, program: renderProgram(files) });
  }

  async propose(ctx: ParentContext): Promise<Proposal> {
    const context = this.context(ctx);
    if (ctx.node === 'root') {
      const files = await this.ask(ctx, 'initialization', `${context}\n\n${prompt('init')}`, this.parseProgram({}));
      const description = 'initialization from the environment description';
      return { files, description, feedback: { agent: 'model', clusters: [], proposal: description } };
    }
    const about = `${ctx.node}, mean validation score ${ctx.q.toFixed(3)} over ${ctx.evaluations} evaluations`;
    const shared = `${context}\n\n${this.program(about, ctx.files)}\n\n`;
    const groups = await this.groups(ctx);
    const analyses: { scenario: string; tasks?: number; mean?: number; analysis: z.infer<typeof Analysis> }[] = [];
    const found: FeedbackCluster[] = [];
    for (const cluster of groups.length ? groups : [undefined]) {
      const task = fillPrompt(prompt('analysis'), {
        scenario: cluster?.scenario ?? 'all',
        tasks: cluster ? String(cluster.tasks) : 'no',
        mean: cluster ? cluster.meanReward.toFixed(3) : '—',
        evidence: cluster ? renderCluster(cluster) : '(no evaluation evidence)',
        focus: cluster && cluster.failures.length === 0 ? FOCUS_PROTECT : FOCUS_FIX,
      });
      const analysis = await this.ask(ctx, 'analysis', withImages(shared + task, cluster ? imageParts(cluster) : []), this.parseJson(Analysis));
      analyses.push({ scenario: cluster?.scenario ?? 'all', ...(cluster ? { tasks: cluster.tasks, mean: cluster.meanReward } : {}), analysis });
      found.push({
        scenario: cluster?.scenario ?? 'all',
        ...(cluster ? { tasks: cluster.tasks, meanReward: cluster.meanReward } : {}),
        summary: analysis.weaknesses.join('; ') || analysis.suggestions.map((x) => x.change).join('; '),
        analysis,
      });
    }
    const tried = renderTried(ctx.tried ?? [], ctx.q);
    let proposal: string;
    let synthesis: MetaFeedback['synthesis'];
    if (analyses.length > 1) {
      const rendered = analyses.map((a) => `### ${a.scenario} (${a.tasks ?? '?'} tasks, mean reward ${a.mean?.toFixed(3) ?? '?'})\n${JSON.stringify(a.analysis, null, 2)}`).join('\n\n');
      const s = await this.ask(ctx, 'synthesis', shared + fillPrompt(prompt('synthesis'), { tried, analyses: rendered }), this.parseJson(Synthesis));
      proposal = `${s.summary}\n${s.changes.map((x, i) => `${i + 1}. ${x.change}${x.why ? ` (${x.why})` : ''}`).join('\n')}`;
      synthesis = s;
    } else {
      const a = analyses[0]?.analysis;
      proposal = [...(a?.weaknesses ?? []).map((w) => `Weakness: ${w}`), ...(a?.suggestions ?? []).sort((x, y) => x.priority - y.priority).map((s) => `Change: ${s.change}`)].join('\n');
    }
    const generation = fillPrompt(prompt('generation'), { proposal, tried, inspirations: renderInspirations(ctx.inspirations ?? []) });
    const files = await this.ask(ctx, 'generation', shared + generation, this.parseProgram(ctx.files));
    const feedback: MetaFeedback = { agent: 'model', clusters: found, proposal, ...(synthesis ? { synthesis } : {}) };
    return { files, description: proposal.split('\n')[0]?.slice(0, 300) ?? 'model proposal', feedback };
  }

  async repair(child: Proposal, report: QuickExamReport, ctx: ParentContext, attempt: number): Promise<Proposal | null> {
    const failure = report.failure ? `${report.failure.check}${report.failure.case ? ` (case ${report.failure.case})` : ''}: ${report.failure.detail}${report.failure.stack ? `\n${report.failure.stack}` : ''}` : 'unknown';
    const reportText = report.checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.message}${c.location ? ` [${c.location}]` : ''}`).join('\n');
    const task = fillPrompt(prompt('repair'), { failure, report: reportText });
    const files = await this.ask(ctx, 'repair', `${this.context(ctx)}\n\n${this.program(`a new child of ${ctx.node}, not evaluated yet`, child.files)}\n\n${task}`, this.parseProgram(child.files));
    return { files, description: `${child.description} (repaired, attempt ${attempt})`, ...(child.feedback ? { feedback: child.feedback } : {}) };
  }
}
