// The model meta agent (the `meta` role, any OpenAI-compatible endpoint). A child of the no-memory root is
// written from the environment's description (initialization). Any other child: the evidence of the parent's
// latest evaluation is grouped by scenario (CluE's clusters, or the environment's metadata), read into one proposal
// (one call covering every cluster, or one call per cluster and a synthesis), and the next version is generated.
// Repairs get the child as its edits to the parent, the quick examination report and the child's lines where it
// failed. Programs are written as search/replace edits (edit-format.ts) applied to the program shown. One agent
// serves a whole run: identical requests are asked once, steps in flight share CluE's pool, and a step writing a
// child of a parent another step in flight is writing from is told that sibling's direction. Model output is
// validated and asked for again when unusable.
import { keyedObject } from '../../../foundation/keyed-object.ts';
import { renderExplanation } from '../../environment/explanation.ts';
import { z } from 'zod';
import type { QuickExamReport } from '../../../sandbox/quick-exam.ts';
import type { RoleModel } from '../../../foundation/llm/models.ts';
import { PoolKeeper } from '../clue/pool-keeper.ts';
import { type Cluster, clusters } from '../evidence.ts';
import { wholeSentences } from '../sentences.ts';
import type { Edit, MetaAgent, MetaFeedback, ModelParent, Proposal } from '../types.ts';
import { type AnalysisMode, jsonReply, readPerCluster, readPerProgram } from './analysis.ts';
import { DEFAULT_MAX_TOKENS, META_PURPOSES, type MetaPurpose, ModelCaller } from './calls.ts';
import { programReply } from './program-reply.ts';
import { renderInspirations, renderTried } from './render.ts';
import { analysisHead, generationRequest, initializationRequest, repairRequest } from './requests.ts';
import { Siblings } from './siblings.ts';

/** A model's change is a whole program, not a typed edit: one edit of kind "model" whose text is its description. */
const modelEdits = (description: string): Edit[] => [{ kind: 'model', key: 'program', from: '', to: description }];

/** A task's ground truth as CluE's summarizer reads it, when the environment explains the task. */
function explained(ctx: ModelParent, taskId: string): string | undefined {
  const e = ctx.explain(taskId);
  return e && renderExplanation(e);
}

/** How a step's evidence is grouped for analysis: CluE's model-managed pool, or the environment's metadata. */
export type ClusteringMode = 'clue' | 'metadata';

export interface ModelMetaOptions {
  clustering?: ClusteringMode;
  /** One analysis call per program covering its clusters (default), or one per cluster and a synthesis. */
  analysis?: AnalysisMode;
  /** max_tokens per purpose (defaults: DEFAULT_MAX_TOKENS); a reply cut at its limit is asked again with twice it. */
  maxTokens?: Partial<Record<MetaPurpose, number>>;
}

export const ModelMetaOptionsSchema = z
  .object({
    clustering: z.enum(['clue', 'metadata']).optional(),
    analysis: z.enum(['program', 'cluster']).optional(),
    maxTokens: z.partialRecord(z.enum(META_PURPOSES), z.number().int().min(256).max(200_000)).optional(),
  })
  .strict();

/** A child's description: what it does differently, in whole sentences. */
const DESCRIPTION_CHARS = 400;

/** The `Design:` line an initialization reply starts with. */
const designOf = (reply: string) => /^\s*Design:\s*(.+)$/m.exec(reply)?.[1]?.trim();

export class ModelMetaAgent implements MetaAgent<'model'> {
  readonly mode = 'model' as const;
  readonly reads = ['model'] as const;
  private readonly caller: ModelCaller;
  private readonly clustering: ClusteringMode;
  private readonly analysis: AnalysisMode;
  private readonly pool = new PoolKeeper();
  private readonly siblings = new Siblings();

  constructor(model: RoleModel, options: ModelMetaOptions | ClusteringMode = {}) {
    const o = ModelMetaOptionsSchema.parse(typeof options === 'string' ? { clustering: options } : options);
    this.clustering = o.clustering ?? 'clue';
    this.analysis = o.analysis ?? 'program';
    this.caller = new ModelCaller(model, { ...DEFAULT_MAX_TOKENS, ...o.maxTokens });
  }

  /** CluE's clustering of the parent's scored tasks (or the metadata groups), reported to the search. */
  private async groups(ctx: ModelParent): Promise<Cluster[]> {
    const scored = (ctx.evaluation?.tasks ?? []).filter((t) => t.reward !== null);
    const outcome =
      this.clustering === 'clue'
        ? await this.pool.cluster(
            ctx.cluePool,
            scored.map((t) => ({
              taskId: t.taskId,
              scenario: t.scenario,
              text: explained(ctx, t.taskId) ?? `${t.scenario} task ${t.taskId}`,
            })),
            (purpose, user, schema) => this.caller.ask(ctx, purpose as MetaPurpose, user, jsonReply(schema)),
          )
        : undefined;
    const groupOf = outcome?.groupOf ?? {};
    if (outcome) {
      // Summaries written by this clustering (not those of the pool it started from, journaled with their step).
      const fresh = keyedObject(Object.entries(outcome.pool.summaries).filter(([id]) => !Object.hasOwn(outcome.base.summaries, id)));
      const assignment = outcome.source === 'model' ? keyedObject(scored.map((t) => [t.taskId, (Object.hasOwn(outcome.pool.assignment, t.taskId) ? outcome.pool.assignment[t.taskId] : undefined) ?? ''])) : outcome.groupOf;
      ctx.onClusters?.({ source: outcome.source, pool: outcome.pool, assignment, summaries: fresh, notes: outcome.notes });
    }
    return clusters(ctx, (t) => groupOf[t.taskId] ?? t.scenario);
  }

  async propose(ctx: ModelParent): Promise<Proposal> {
    const turn = this.siblings.join(ctx.node, ctx.step);
    let direction: string | undefined;
    try {
      const tried = () => renderTried(ctx.tried ?? [], ctx.files, ctx.q, turn.now());
      const proposal = ctx.node === 'root' ? await this.initialize(ctx, tried) : await this.improve(ctx, tried, (d) => turn.settle(d));
      direction = proposal.description;
      return proposal;
    } finally {
      turn.settle(direction);
    }
  }

  private async initialize(ctx: ModelParent, tried: () => string): Promise<Proposal> {
    let design: string | undefined;
    const parse = programReply({});
    const files = await this.caller.ask(ctx, 'initialization', initializationRequest(ctx, tried()), (reply) => {
      const parsed = parse(reply);
      design = designOf(reply);
      return parsed;
    });
    const description = wholeSentences(design ?? 'A first program written from the environment description.', DESCRIPTION_CHARS);
    return {
      files,
      description,
      edits: modelEdits(description),
      feedback: { agent: 'model', clusters: [], proposal: description },
    };
  }

  /** Reads the evidence into a proposal, says its direction to siblings in flight, and writes the next version. */
  private async improve(ctx: ModelParent, tried: () => string, settle: (direction: string) => void): Promise<Proposal> {
    const groups = await this.groups(ctx);
    const read = this.analysis === 'program' ? readPerProgram : readPerCluster;
    const reading = await read(this.caller, ctx, analysisHead(ctx, groups), groups, tried);
    const description = wholeSentences(reading.summary, DESCRIPTION_CHARS);
    settle(description);
    const request = generationRequest(ctx, reading.proposal, tried(), renderInspirations(ctx.inspirations ?? []));
    const files = await this.caller.ask(ctx, 'generation', request, programReply(ctx.files));
    const feedback: MetaFeedback = { agent: 'model', clusters: reading.found, proposal: reading.proposal, ...(reading.synthesis ? { synthesis: reading.synthesis } : {}) };
    return { files, description, edits: modelEdits(description), feedback };
  }

  async repair(child: Proposal, report: QuickExamReport, ctx: ModelParent, attempt: number): Promise<Proposal | null> {
    const files = await this.caller.ask(ctx, 'repair', repairRequest(ctx, child.files, report), programReply(child.files));
    return { files, description: `${child.description} (repaired, attempt ${attempt})`, edits: child.edits, ...(child.feedback ? { feedback: child.feedback } : {}) };
  }
}
