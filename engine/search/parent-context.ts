// What the meta agent is given to write a child of a node, in the parts it asks for (MetaAgent.reads): the core
// every agent reads (the program, its score, its latest evaluation with the payloads, the environment, what was
// tried from it), the model agent's part (trajectories and images, the environment's words, inspirations, CluE's
// pool, the hooks through which its calls and clusterings are journaled) and the offline agent's (payload metadata,
// crossover donors, the design it descends from, what validation asks, the edit history). Everything is read from
// the search's state and the run folder's files the journal names, so a resumed search gives the same view.
import { join } from 'node:path';
import type { CostLedger } from '../../foundation/llm/ledger.ts';
import type { ResolvedModels } from '../../foundation/llm/models.ts';
import { readSmallFile } from '../../foundation/small-file.ts';
import type { Environment } from '../environment/contract.ts';
import { readEvidenceLines, SUMMARY_MAX_BYTES, TaskEvidenceSchema } from '../evaluate/evidence.ts';
import type { EvaluationResult } from '../evaluate/evaluate.ts';
import { evidenceImages, type TaskImages } from '../meta/evidence-images.ts';
import type { ShownStep } from '../meta/types.ts';
import type {
  Clustering,
  EditOutcome,
  ModelPart,
  OfflinePart,
  ParentCore,
  ParentPart,
  ParentView,
} from '../meta/types.ts';
import { checkBudget } from './budget.ts';
import { crossoverDonors } from './crossover-donors.ts';
import { inspirationsFor, type MemoryMaterial, memoryMaterial, rolesLine, triedFrom } from './meta-context.ts';
import { designOf } from './node-ids.ts';
import type { NoOpCheck } from './no-op-check.ts';
import type { ProgramStore } from './program-store.ts';
import type { SearchJournal } from './search-journal.ts';
import type { SearchTree, TreeNode } from './tree.ts';
import type { ValidationSampler } from './validation-sampler.ts';

const MAX_INSTRUCTIONS = 500;
const MAX_INSTRUCTION_CHARS = 300;
const MAX_QUESTION_CHARS = 2_000;

export interface ContextSources {
  journal: SearchJournal;
  programs: ProgramStore;
  noOps: NoOpCheck;
  sampler: ValidationSampler;
  env: Environment;
  models: ResolvedModels;
  ledger: CostLedger;
  /** The run's seed, its seed programs, its dollar cap. */
  options: { seed: number; seeds: string[]; maxUsd?: number };
}

type TaskLine = ReturnType<typeof TaskEvidenceSchema.parse>;

/** A node's latest scored validation evaluation, as its evidence holds it. */
interface ReadEvidence {
  dir?: string;
  evaluation?: EvaluationResult;
  lines: TaskLine[];
}

export class ParentContexts {
  /** What the memory is built from: read once per search, for every meta prompt. */
  private material: Promise<MemoryMaterial> | undefined;
  /** What the validation tasks ask, read once per search. */
  private asked: Promise<string[]> | undefined;

  constructor(private readonly s: ContextSources) {}

  /** The parent as an agent that reads `reads` sees it at `step`. */
  async of<P extends ParentPart>(parent: TreeNode, step: number, reads: readonly P[]): Promise<ParentView<P>> {
    const read = await this.readEvidence(parent);
    const core = await this.core(parent, step, read);
    const model = reads.includes('model' as P) ? await this.modelPart(parent, step, read) : {};
    const offline = reads.includes('offline' as P) ? await this.offlinePart(parent, read) : {};
    return { ...core, ...model, ...offline } as ParentView<P>;
  }

  private async core(parent: TreeNode, step: number, read: ReadEvidence): Promise<ParentCore> {
    const { journal, programs, env } = this.s;
    const { tree } = journal.state;
    this.material ??= memoryMaterial(env).catch((): MemoryMaterial => ({ counts: [] }));
    const { example, counts } = await this.material;
    return {
      node: parent.id,
      files: programs.files(parent),
      q: tree.q(parent),
      evaluation: read.evaluation,
      payloads: new Map(read.lines.map((l) => [l.taskId, l.payload?.text ?? ''])),
      env: env.info(),
      explain: (id) => env.explain?.(id),
      step,
      tried: triedFrom(tree, parent.id, (dir) => {
        try {
          return programs.files({ dir });
        } catch {
          return undefined;
        }
      }),
      ...(example ? { exampleEpisode: example } : {}),
      updateEpisodes: counts,
    };
  }

  private async modelPart(parent: TreeNode, step: number, read: ReadEvidence): Promise<ModelPart> {
    const { journal, env, models, ledger, options } = this.s;
    const { tree, cluePool } = journal.state;
    const questions = new Map<string, string>();
    const trajectories = new Map<string, readonly ShownStep[]>();
    const images = new Map<string, TaskImages>();
    for (const l of read.lines) {
      if (l.question !== undefined) questions.set(l.taskId, l.question.slice(0, MAX_QUESTION_CHARS));
      if (l.trajectory?.steps?.length) trajectories.set(l.taskId, l.trajectory.steps);
      const shown = read.dir ? evidenceImages(read.dir, l) : { episode: [], payload: [] };
      if (shown.episode.length || shown.payload.length) images.set(l.taskId, shown);
    }
    const info = env.info();
    return {
      evaluations: parent.scores.length,
      questions,
      trajectories,
      images,
      envDescription: env.describe?.() ?? info.name,
      ...(env.guide ? { guide: env.guide() } : {}),
      roles: rolesLine(models),
      inspirations: inspirationsFor(tree, parent.id),
      cluePool,
      onClusters: (c) => this.journalClusters(c, parent.id, step),
      beforeModelCall: () => checkBudget(ledger, options.maxUsd),
      // Charged to the ledger by its line (applyEvent); a reused reply made no request and is not.
      onModelCall: (call) => journal.record({ type: 'meta-call', step, node: parent.id, role: 'meta', ...call }),
    };
  }

  private async offlinePart(parent: TreeNode, read: ReadEvidence): Promise<OfflinePart> {
    const { journal, programs, noOps, env, options } = this.s;
    const { tree, screen } = journal.state;
    this.asked ??= env
      .worlds('train')
      .then((ws) =>
        ws
          .flatMap((w) => w.tasks.map((t) => (t.instruction ?? '').slice(0, MAX_INSTRUCTION_CHARS)))
          .slice(0, MAX_INSTRUCTIONS),
      )
      .catch(() => []);
    const payloadMetadata = new Map<string, unknown>();
    for (const l of read.lines)
      if (l.payload?.metadata !== undefined) payloadMetadata.set(l.taskId, l.payload.metadata);
    const design = designOf(tree, options.seeds, screen, parent.id);
    const { fields } = await (this.material ??= memoryMaterial(env).catch((): MemoryMaterial => ({ counts: [] })));
    return {
      payloadMetadata,
      donors: crossoverDonors({ tree, screen, programs, seeds: options.seeds }, parent.id),
      ...(design ? { design } : {}),
      instructions: await this.asked,
      inTree: (files) => noOps.twin(files) !== undefined,
      seed: options.seed,
      history: editHistory(tree),
      ...(fields ? { episodeFields: fields } : {}),
    };
  }

  /**
   * The parent's latest scored validation evaluation, read from its evidence whether it ran in this session or an
   * earlier one: its summary, and its task lines (the last line of a task written twice), in the order the evaluation
   * returned them (the validation's order).
   */
  private async readEvidence(parent: TreeNode): Promise<ReadEvidence> {
    const latest = parent.samples.at(-1);
    if (latest === undefined) return { lines: [] };
    const dir = this.s.programs.folder.evidenceDir(parent.id, 'train', latest);
    try {
      // Read within the evidence limits: a program's giant payload must not take the search's memory.
      const byTask = new Map<string, TaskLine>();
      for (const l of readEvidenceLines(join(dir, 'tasks.jsonl'), TaskEvidenceSchema).records) byTask.set(l.taskId, l);
      const order = new Map((await this.s.sampler.ids()).map((id, i) => [id, i]));
      const at = (l: TaskLine) => order.get(l.taskId) ?? order.size;
      const lines = [...byTask.values()].sort((a, b) => at(a) - at(b));
      const summary = JSON.parse(readSmallFile(join(dir, 'summary.json'), SUMMARY_MAX_BYTES) ?? '');
      return { dir, lines, evaluation: { ...summary, tasks: lines } as EvaluationResult };
    } catch {
      // No evidence to read (it was removed): the meta agent works from the program alone.
      return { lines: [] };
    }
  }

  /**
   * A clustering the meta agent made, journaled: a model's pool is the search's from then on (applyEvent rebuilds it
   * from the line: this step's tasks, and the earlier tasks the clustering moved or let go).
   */
  private journalClusters(c: Clustering, node: string, step: number): void {
    const { journal } = this.s;
    const counts = new Map<string, number>();
    for (const g of Object.values(c.pool.assignment)) counts.set(g, (counts.get(g) ?? 0) + 1);
    const clusters = c.source === 'model' ? c.pool.clusters.map((x) => ({ ...x, tasks: counts.get(x.id) ?? 0 })) : [];
    const line = {
      type: 'clusters' as const,
      step,
      node,
      source: c.source,
      notes: c.notes.slice(0, 100),
      clusters,
      assignment: c.assignment,
      summaries: c.summaries,
    };
    if (c.source !== 'model') {
      journal.record(line);
      return;
    }
    // What the pool's assignment holds beyond the old one with this step's tasks on top.
    const base = new Map([...Object.entries(journal.state.cluePool.assignment), ...Object.entries(c.assignment)]);
    const after = c.pool.assignment;
    const moved = Object.fromEntries(Object.entries(after).filter(([task, id]) => base.get(task) !== id));
    const dropped = [...base.keys()].filter((task) => !Object.hasOwn(after, task));
    journal.record({
      ...line,
      ...(Object.keys(moved).length ? { moved } : {}),
      ...(dropped.length ? { dropped } : {}),
    });
  }
}

/** Every evaluated child with structured edits, and how its first score compares with its parent's first. */
export function editHistory(tree: SearchTree): EditOutcome[] {
  const out: EditOutcome[] = [];
  for (const n of tree.nodes.values()) {
    if (!n.edits?.length || !n.parent || n.scores.length === 0) continue;
    const parent = tree.get(n.parent);
    if (parent.scores.length === 0) continue;
    out.push({
      node: n.id,
      parent: n.parent,
      edits: n.edits,
      delta: (n.scores[0] as number) - (parent.scores[0] as number),
    });
  }
  // A no-op's edits changed nothing: as an edit that scored exactly its parent's score.
  for (const x of tree.noops)
    if (x.edits?.length) out.push({ node: `step ${x.step}`, parent: x.parent, edits: x.edits, delta: 0 });
  return out;
}
