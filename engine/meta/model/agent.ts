// The model meta agent (the `meta` role, any OpenAI-compatible endpoint). A child of the no-memory root is
// written from the environment's description (initialization). Any other child: the evidence of the parent's
// latest evaluation is grouped by scenario, each cluster is analysed on its own (so heterogeneous tasks do not
// wash each other out), one proposal is synthesised, and the next version is generated. Repairs get the quick
// examination report and the failing case. Model output is validated: malformed JSON or a reply with no program is
// asked for again, at most twice.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { libHelpers } from '../../../sandbox/allowed-imports.ts';
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
import { isSafeRelPath } from '../../../foundation/safe-path.ts';

const Analysis = z.object({
  relevance: z.array(z.object({ taskId: z.string(), label: z.enum(['helpful', 'missing', 'irrelevant', 'redundant', 'misleading']), why: z.string().optional() })).default([]),
  weaknesses: z.array(z.string()).default([]),
  suggestions: z.array(z.object({ priority: z.number(), change: z.string() })).min(1),
});
const Synthesis = z.object({ summary: z.string(), changes: z.array(z.object({ change: z.string(), why: z.string().optional(), clusters: z.array(z.string()).optional() })).min(1) });

const prompt = (name: string) => readPrompt(import.meta.url, `./prompts/${name}.txt`);
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
      const fresh = Object.fromEntries(Object.entries(outcome.pool.summaries).filter(([id]) => pool.summaries[id] === undefined));
      const assignment = outcome.source === 'model' ? Object.fromEntries(scored.map((t) => [t.taskId, outcome.pool.assignment[t.taskId] ?? ''])) : outcome.groupOf;
      ctx.onClusters?.({ source: outcome.source, pool: outcome.pool, assignment, summaries: fresh, notes: outcome.notes });
    }
    return clusters(ctx, (t) => groupOf[t.taskId] ?? t.scenario);
  }

  private async chat(ctx: ParentContext, purpose: string, user: string, json: boolean): Promise<string> {
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
      const pt = res.usage?.prompt_tokens ?? Math.ceil(user.length / 4);
      const ct = res.usage?.completion_tokens ?? Math.ceil(text.length / 4);
      ctx.onModelCall?.({ purpose, model: this.model.model, promptTokens: pt, completionTokens: ct, usd: priceOf(this.model, pt, ct), ms: Date.now() - started, ok: true });
      return text;
    } catch (err) {
      const message = (err as Error).message;
      ctx.onModelCall?.({ purpose, model: this.model.model, promptTokens: 0, completionTokens: 0, usd: null, ms: Date.now() - started, ok: false, error: message });
      throw new MetaAgentError(`the meta model failed during ${purpose}: ${message}`, { cause: err });
    }
  }

  /** Asks until the reply parses (at most 1 + MAX_RETRIES times), telling the model what was wrong. */
  private async ask<T>(ctx: ParentContext, purpose: string, user: string, parse: (reply: string) => T): Promise<T> {
    let request = user;
    let lastError = '';
    for (let attempt = 0; attempt <= MAX_RETRIES; attempt++) {
      const reply = await this.chat(ctx, attempt ? `${purpose} (retry ${attempt})` : purpose, request, purpose !== 'generation' && purpose !== 'repair' && purpose !== 'initialization');
      try {
        return parse(reply);
      } catch (err) {
        lastError = (err as Error).message;
        request = `${user}\n\nYour previous reply could not be used: ${lastError}. Reply again, exactly in the format asked.`;
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

  private common(ctx: ParentContext) {
    return {
      environment: ctx.envDescription,
      budget: `${ctx.env.budget.maxChars} characters and ${ctx.env.budget.maxImages} images per retrieve`,
      contract: readFileSync(contractPath, 'utf8'),
      helpers: libHelpers().join(', '),
      node: ctx.node,
      score: ctx.q.toFixed(3),
      evaluations: String(ctx.evaluations),
    };
  }

  async propose(ctx: ParentContext): Promise<Proposal> {
    const c = this.common(ctx);
    if (ctx.node === 'root') {
      const files = await this.ask(ctx, 'initialization', fillPrompt(prompt('init'), c), this.parseProgram({}));
      const description = 'initialization from the environment description';
      return { files, description, feedback: { agent: 'model', clusters: [], proposal: description } };
    }
    const program = renderProgram(ctx.files);
    const groups = await this.groups(ctx);
    const analyses = [];
    const found: FeedbackCluster[] = [];
    for (const cluster of groups.length ? groups : [undefined]) {
      const analysis = await this.ask(
        ctx,
        'analysis',
        fillPrompt(prompt('analysis'), { ...c, program, scenario: cluster?.scenario ?? 'all', evidence: cluster ? renderCluster(cluster) : '(no evaluation evidence)' }),
        this.parseJson(Analysis),
      );
      analyses.push({ scenario: cluster?.scenario ?? 'all', analysis });
      found.push({
        scenario: cluster?.scenario ?? 'all',
        ...(cluster ? { tasks: cluster.tasks, meanReward: cluster.meanReward } : {}),
        summary: analysis.weaknesses.join('; ') || analysis.suggestions.map((x) => x.change).join('; '),
        analysis,
      });
    }
    let proposal: string;
    let synthesis: MetaFeedback['synthesis'];
    if (analyses.length > 1) {
      const s = await this.ask(
        ctx,
        'synthesis',
        fillPrompt(prompt('synthesis'), { ...c, program, analyses: analyses.map((a) => `### ${a.scenario}\n${JSON.stringify(a.analysis, null, 2)}`).join('\n\n') }),
        this.parseJson(Synthesis),
      );
      proposal = `${s.summary}\n${s.changes.map((x, i) => `${i + 1}. ${x.change}${x.why ? ` (${x.why})` : ''}`).join('\n')}`;
      synthesis = s;
    } else {
      const a = analyses[0]?.analysis;
      proposal = [...(a?.weaknesses ?? []).map((w) => `Weakness: ${w}`), ...(a?.suggestions ?? []).sort((x, y) => x.priority - y.priority).map((s) => `Change: ${s.change}`)].join('\n');
    }
    const files = await this.ask(ctx, 'generation', fillPrompt(prompt('generation'), { ...c, program, proposal }), this.parseProgram(ctx.files));
    const feedback: MetaFeedback = { agent: 'model', clusters: found, proposal, ...(synthesis ? { synthesis } : {}) };
    return { files, description: proposal.split('\n')[0]?.slice(0, 300) ?? 'model proposal', feedback };
  }

  async repair(child: Proposal, report: QuickExamReport, ctx: ParentContext, attempt: number): Promise<Proposal | null> {
    const failure = report.failure ? `${report.failure.check}${report.failure.case ? ` (case ${report.failure.case})` : ''}: ${report.failure.detail}${report.failure.stack ? `\n${report.failure.stack}` : ''}` : 'unknown';
    const reportText = report.checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.message}${c.location ? ` [${c.location}]` : ''}`).join('\n');
    const files = await this.ask(
      ctx,
      'repair',
      fillPrompt(prompt('repair'), { ...this.common(ctx), failure, report: reportText, program: renderProgram(child.files) }),
      this.parseProgram(child.files),
    );
    return { files, description: `${child.description} (repaired, attempt ${attempt})`, ...(child.feedback ? { feedback: child.feedback } : {}) };
  }
}
