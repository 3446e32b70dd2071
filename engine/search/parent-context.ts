// What the meta agent is given to write a child of a node: the program, its score and latest evaluation (with the
// payloads, trajectories and images its evidence kept), the tree around it (tried children, inspirations, donors,
// edit history), the environment's description and guide, and the hooks through which its model calls and
// clusterings are charged and journaled.
import { join } from 'node:path';
import { readProgramFiles } from '../../memo-programs/files.ts';
import { readSmallFile } from '../../foundation/small-file.ts';
import { readEvidenceLines, SUMMARY_MAX_BYTES, TaskEvidenceSchema } from '../evaluate/evidence.ts';
import type { EvaluationResult } from '../evaluate/evaluate.ts';
import { evidenceImages, type TaskImages } from '../meta/evidence-images.ts';
import { renderSteps } from '../meta/evidence.ts';
import type { Clustering, EditOutcome, ParentContext } from '../meta/types.ts';
import { checkBudget } from './budget.ts';
import { crossoverDonors } from './crossover-donors.ts';
import { inspirationsFor, type MemoryMaterial, memoryMaterial, rolesLine, triedFrom } from './meta-context.ts';
import type { NoOpCheck } from './no-op-check.ts';
import type { SearchRun } from './search-run.ts';
import type { SearchTree, TreeNode } from './tree.ts';

const MAX_INSTRUCTIONS = 500;
const MAX_INSTRUCTION_CHARS = 300;
const MAX_QUESTION_CHARS = 2_000;

/** What a node's latest validation evidence shows, per task. */
interface ReadEvidence {
  evaluation?: EvaluationResult;
  payloads: Map<string, string>;
  payloadMetadata: Map<string, unknown>;
  questions: Map<string, string>;
  trajectories: Map<string, string>;
  images: Map<string, TaskImages>;
}

export class ParentContexts {
  /** What the memory is built from: read once per search, for every meta prompt. */
  private material: Promise<MemoryMaterial> | undefined;
  /** What the validation tasks ask, read once per search. */
  private asked: Promise<string[]> | undefined;

  constructor(
    private readonly run: SearchRun,
    private readonly noOps: NoOpCheck,
  ) {}

  async of(parent: TreeNode, step: number): Promise<ParentContext> {
    const { run } = this;
    const { deps, folder, options, state } = run;
    const read = this.readEvidence(parent);
    const info = deps.env.info();
    this.material ??= memoryMaterial(deps.env).catch(() => ({ counts: [] }));
    const { example, counts } = await this.material;
    this.asked ??= deps.env
      .worlds('train')
      .then((ws) => ws.flatMap((w) => w.tasks.map((t) => (t.instruction ?? '').slice(0, MAX_INSTRUCTION_CHARS))).slice(0, MAX_INSTRUCTIONS))
      .catch(() => []);
    const instructions = await this.asked;
    return {
      node: parent.id,
      files: readProgramFiles(join(folder.dir, parent.dir)),
      q: state.tree.q(parent),
      evaluations: parent.scores.length,
      evaluation: read.evaluation,
      payloads: read.payloads,
      payloadMetadata: read.payloadMetadata,
      questions: read.questions,
      donors: crossoverDonors(run, parent.id),
      trajectories: read.trajectories,
      images: read.images,
      env: info,
      explain: (id) => deps.env.explain?.(id),
      envDescription: deps.env.describe?.() ?? info.name,
      ...(run.designOf(parent.id) ? { design: run.designOf(parent.id) } : {}),
      instructions,
      inTree: (files) => this.noOps.twin(files) !== undefined,
      step,
      seed: options.seed,
      history: editHistory(state.tree),
      ...(deps.env.guide ? { guide: deps.env.guide() } : {}),
      roles: rolesLine(deps.models),
      ...(example ? { exampleEpisode: example } : {}),
      updateEpisodes: counts,
      tried: triedFrom(state.tree, parent.id, (dir) => {
        try {
          return readProgramFiles(join(folder.dir, dir));
        } catch {
          return undefined;
        }
      }),
      inspirations: inspirationsFor(state.tree, parent.id),
      cluePool: state.cluePool,
      onClusters: (c) => this.journalClusters(c, parent.id, step),
      beforeModelCall: () => checkBudget(deps.ledger, options.maxUsd),
      onModelCall: (call) => {
        // A reused reply made no request: it is journaled, not charged.
        if (!call.reused) deps.ledger.add({ role: 'meta', node: parent.id, promptTokens: call.promptTokens, ...(call.cachedTokens !== undefined ? { cachedTokens: call.cachedTokens } : {}), completionTokens: call.completionTokens, usd: call.usd });
        run.log({ type: 'meta-call', step, node: parent.id, role: 'meta', ...call });
      },
    };
  }

  /** The latest evaluation's evidence gives the payloads (and, after a resume, the evaluation itself). */
  private readEvidence(parent: TreeNode): ReadEvidence {
    const { run } = this;
    const out: ReadEvidence = { payloads: new Map(), payloadMetadata: new Map(), questions: new Map(), trajectories: new Map(), images: new Map() };
    const last = run.lastEval.get(parent.id);
    if (last) out.evaluation = last;
    const dir = parent.scores.length ? run.folder.evidenceDir(parent.id, 'train', parent.scores.length - 1) : undefined;
    if (!dir) return out;
    try {
      // Read within the evidence limits: a program's giant payload must not take the search's memory.
      const lines = readEvidenceLines(join(dir, 'tasks.jsonl'), TaskEvidenceSchema).records;
      for (const l of lines) {
        out.payloads.set(l.taskId, l.payload?.text ?? '');
        if (l.payload?.metadata !== undefined) out.payloadMetadata.set(l.taskId, l.payload.metadata);
        if (l.question !== undefined) out.questions.set(l.taskId, l.question.slice(0, MAX_QUESTION_CHARS));
        if (l.trajectory?.steps?.length) out.trajectories.set(l.taskId, renderSteps(l.trajectory.steps));
        const shown = evidenceImages(dir, l);
        if (shown.episode.length || shown.payload.length) out.images.set(l.taskId, shown);
      }
      if (!out.evaluation) {
        const summary = JSON.parse(readSmallFile(join(dir, 'summary.json'), SUMMARY_MAX_BYTES) ?? '');
        out.evaluation = { ...summary, tasks: lines } as EvaluationResult;
      }
    } catch {
      // No evidence to read (it was removed): the meta agent works from the program alone.
    }
    return out;
  }

  /** A clustering the meta agent made: a model's pool carries over to later steps; either is journaled. */
  private journalClusters(c: Clustering, node: string, step: number): void {
    const { state } = this.run;
    if (c.source === 'model') state.cluePool = c.pool;
    const counts = new Map<string, number>();
    for (const g of Object.values(c.pool.assignment)) counts.set(g, (counts.get(g) ?? 0) + 1);
    const clusters = c.source === 'model' ? c.pool.clusters.map((x) => ({ ...x, tasks: counts.get(x.id) ?? 0 })) : [];
    this.run.log({ type: 'clusters', step, node, source: c.source, notes: c.notes.slice(0, 100), clusters, assignment: c.assignment, summaries: c.summaries });
  }
}

/** Every evaluated child with structured edits, and how its first score compares with its parent's first. */
export function editHistory(tree: SearchTree): EditOutcome[] {
  const out: EditOutcome[] = [];
  for (const n of tree.nodes.values()) {
    if (!n.edits?.length || !n.parent || n.scores.length === 0) continue;
    const parent = tree.get(n.parent);
    if (parent.scores.length === 0) continue;
    out.push({ node: n.id, parent: n.parent, edits: n.edits, delta: (n.scores[0] as number) - (parent.scores[0] as number) });
  }
  // A no-op's edits changed nothing: as an edit that scored exactly its parent's score.
  for (const x of tree.noops) if (x.edits?.length) out.push({ node: `step ${x.step}`, parent: x.parent, edits: x.edits, delta: 0 });
  return out;
}
