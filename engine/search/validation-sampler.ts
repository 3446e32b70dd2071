// Which validation tasks each evaluation of a node scores, and what the validation can tell apart.
//
// The validation tasks are dealt, in a seeded order, into disjoint samples of (about) the same size: each at least
// `minEvalTasks` tasks (or all of them) and `evalFraction` of them. Evaluation k of every node scores sample k (paired:
// a child's first score compares with its parent's first on identical tasks), so a node's evaluations together cover
// more and more of the validation. Where the environment is deterministic (same program, same tasks, same outcome),
// scoring a sample twice tells nothing: a node has as many evaluations as there are samples, and no more (the tree
// does not offer another, tree.ts's canEvaluate). Elsewhere, evaluation k scores sample k modulo their number.
// Indices are claimed when an evaluation starts, so two evaluations of one node in flight (parallel search) never
// share one; the samples a node has scored are the tree's (each score's sample, from its `evaluation` line).
import type { Environment } from '../environment/contract.ts';
import { taskHash } from '../environment/roles.ts';
import type { RunOptions } from './run-options.ts';
import { holdOut, MIN_VALIDATION_FOR_SELECTION } from './selection-holdout.ts';
import type { TreeNode } from './tree.ts';

export interface TaskSample {
  /** The sample's task ids, or undefined for every task of the split. */
  taskIds?: string[];
  /** The seed the sample was drawn with (journaled with the evaluation). */
  sampleSeed: number;
}

/** What a search's validation can tell apart, stated before step 0 and in its report. */
export interface ValidationPlan {
  /** Validation tasks in all. */
  tasks: number;
  /** Tasks each evaluation scores. */
  perEvaluation: number;
  /** Disjoint samples of them (evaluations a node can have that each add tasks). */
  samples: number;
  /** Same program, same tasks, same outcome: a sample is never scored twice. */
  deterministic: boolean;
  /** A score on one sample is known to ± this (95%, rewards of 0 or 1 at worst): smaller differences are not resolved. */
  resolvable: number;
  /** What one task moves a score on one sample by. */
  oneTask: number;
  /** Set when validation is too small to tell programs apart. */
  warning?: string;
  /**
   * The validation tasks held out for selection only (selection-holdout.ts): never shown to the meta agent, where the
   * pick is chosen, and the ± of a score on them; absent when none are held out (then `selectionNote` says why).
   */
  selection?: { tasks: number; resolvable: number };
  selectionNote?: string;
}

/** Below this many validation tasks a search warns (engine/evaluate/task-sample.ts's minimum). */
export const MIN_VALIDATION_TASKS = 30;

/** The ± of a mean of n rewards in [0, 1] at 95%, at its widest (rewards of 0 or 1, half of them 1). */
export const resolvableAt = (n: number) => (n > 0 ? (1.96 * 0.5) / Math.sqrt(n) : 1);

export function validationPlan(
  ids: number,
  options: Pick<RunOptions, 'evalFraction' | 'minEvalTasks'>,
  deterministic: boolean,
): ValidationPlan {
  const samples = ids > 0 ? Math.max(1, Math.floor(ids / Math.max(1, sampleSize(ids, options)))) : 0;
  // Tasks are dealt into the samples in turn: each holds ids / samples of them (the first few one more).
  const per = samples ? Math.floor(ids / samples) : 0;
  const plan: ValidationPlan = {
    tasks: ids,
    perEvaluation: per,
    samples,
    deterministic,
    resolvable: round3(resolvableAt(per)),
    oneTask: round3(per > 0 ? 1 / per : 1),
  };
  if (ids < MIN_VALIDATION_TASKS) {
    plan.warning =
      ids === 0
        ? 'validation has no task: the search cannot score any program'
        : `validation has only ${ids} task${ids === 1 ? '' : 's'}: a score is known to ±${plan.resolvable.toFixed(2)}, and programs closer than that cannot be told apart; give the benchmark more tasks, or state its split (at least ${MIN_VALIDATION_TASKS} validation tasks)`;
  }
  return plan;
}

/**
 * An environment's validation task ids — those the search's samples are dealt from, and those held out for selection
 * (selection-holdout.ts) — and what they can tell apart under a run's options.
 */
export async function validationOf(
  env: Environment,
  options: Pick<RunOptions, 'evalFraction' | 'minEvalTasks' | 'seed' | 'selectionShare'>,
): Promise<{ ids: string[]; selection: string[]; plan: ValidationPlan }> {
  const all = (await env.worlds('train')).flatMap((w) => w.tasks.map((t) => t.taskId));
  const { search, selection } = holdOut(all, options.seed, options.selectionShare);
  const plan = validationPlan(search.length, options, env.info().deterministic);
  if (selection.length)
    plan.selection = { tasks: selection.length, resolvable: round3(resolvableAt(selection.length)) };
  else if (options.selectionShare)
    plan.selectionNote = `no validation tasks held out for selection: it has ${all.length}, fewer than ${MIN_VALIDATION_FOR_SELECTION}; the pick is chosen on the validation the meta agent saw`;
  return { ids: search, selection, plan };
}

function sampleSize(ids: number, o: Pick<RunOptions, 'evalFraction' | 'minEvalTasks'>): number {
  if (o.evalFraction >= 1) return ids;
  return Math.min(ids, Math.max(o.minEvalTasks, Math.round(o.evalFraction * ids)));
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export class ValidationSampler {
  /** Sample indices of evaluations in flight, per node. */
  private readonly running = new Map<string, Set<number>>();
  private prepared: Promise<{ ids: string[]; selection: string[]; plan: ValidationPlan }> | undefined;

  constructor(
    private readonly env: Environment,
    private readonly options: RunOptions,
  ) {}

  /** The validation tasks and what they can tell apart (read once). */
  plan(): Promise<ValidationPlan> {
    return this.prepare().then((p) => p.plan);
  }

  /** The validation task ids, in the order an evaluation returns its tasks (world by world). */
  ids(): Promise<string[]> {
    return this.prepare().then((p) => p.ids);
  }

  /** The lowest sample index this node has neither scored nor in flight; it is in flight from now on. */
  claim(node: TreeNode): number {
    const running = this.running.get(node.id) ?? new Set<number>();
    let k = 0;
    while (node.samples.includes(k) || running.has(k)) k++;
    this.running.set(node.id, running.add(k));
    return k;
  }

  /** The evaluation with index k ended (a scored one's index is the tree's from its `evaluation` line on). */
  release(node: string, k: number): void {
    this.running.get(node)?.delete(k);
  }

  /** The tasks of sample `index` of a split (the test split is always scored whole). */
  async sample(split: 'train' | 'test', index: number): Promise<TaskSample> {
    const { options } = this;
    const sampleSeed = Math.floor(taskHash(options.seed, `${split}/${index}`) * 2 ** 31);
    if (split === 'test' || options.evalFraction >= 1) return { sampleSeed };
    const { ids, plan } = await this.prepare();
    if (plan.samples <= 1) return { sampleSeed };
    const k = index % plan.samples;
    // Dealt in turn from one seeded order: samples differ in size by one at most, and together hold every task. In an
    // environment composed of several, the order runs source by source, so every sample holds its share of each
    // source (a sample without a source would score a different mean of sources); one source: the order as before.
    const source = (id: string) => this.env.source?.(id) ?? '';
    const order = [...new Set(ids)]
      .map((id) => ({ id, s: source(id), h: taskHash(options.seed, `validation-order\u0000${id}`) }))
      .sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0) || a.h - b.h || (a.id < b.id ? -1 : 1));
    const keep = new Set(order.filter((_, j) => j % plan.samples === k).map((x) => x.id));
    return { taskIds: ids.filter((id) => keep.has(id)), sampleSeed };
  }

  /** The validation tasks held out for selection only. */
  async selectionIds(): Promise<string[]> {
    return (await this.prepare()).selection;
  }

  private prepare(): Promise<{ ids: string[]; selection: string[]; plan: ValidationPlan }> {
    this.prepared ??= validationOf(this.env, this.options);
    return this.prepared;
  }
}
