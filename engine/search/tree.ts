// The search tree: nodes, their evaluations, failed generations, children that changed nothing. Plain state plus the
// derived quantities the formulas need (Q, n, m, S, N). It changes only through applyEvent (search-state.ts), live
// and on resume alike, so it holds nothing the journal lacks — apart from the work in flight (reserve), which a
// resumed search has none of.
import type { Edit, ProposalMode } from '../meta/types.ts';
import type { JournalEvent } from './journal-events.ts';
import { improvement } from './ucb.ts';

export type NodeKind = 'root' | 'seed' | 'child';

export interface TreeNode {
  id: string;
  parent: string | null;
  kind: NodeKind;
  /** Folder of the program's files, relative to the run folder. */
  dir: string;
  hash: string;
  /** Step that created it (0 for root and seeds). */
  step: number;
  /** The parent's mean when this node was generated (fixed afterwards). */
  parentSnapshot: number | null;
  /** Validation scores of its full evaluations, in order. */
  scores: number[];
  /** The validation sample each of those scores was made on (scores[i] on sample samples[i]). */
  samples: number[];
  /** What the meta agent changed and why, in prose (for the viewer and prompts). */
  description?: string;
  /** What it changed, typed (a child's; none for the root and seeds). */
  edits?: Edit[];
  /** What chose its edit (a child's). */
  mode?: ProposalMode;
  testScore?: number;
  /** Evaluations that scored nothing (infrastructure failed every task): kept apart, never in Q, n or N. */
  unscored?: UnscoredEvaluation[];
}

export interface UnscoredEvaluation {
  step: number;
  split: 'train' | 'test';
  reason: string;
}

type Line<T extends JournalEvent['type']> = Omit<Extract<JournalEvent, { type: T }>, 'type' | 't'>;

/** A child that never passed quick examination, or that the meta agent could not write: its generation-failed line. */
export type FailedGeneration = Line<'generation-failed'>;

/** A child that would have changed nothing (NO_OP_RULES): its no-op line. */
export type NoOpChild = Line<'no-op'>;

/**
 * What scoring a validation sample again can tell: where the environment is deterministic (same program, same tasks,
 * same outcome), nothing — a node then has one evaluation per disjoint sample and no more; elsewhere a sample scored
 * again is a new measurement.
 */
export interface Resampling {
  deterministic: boolean;
  /** Disjoint validation samples. */
  samples: number;
}

export class SearchTree {
  readonly nodes = new Map<string, TreeNode>();
  readonly failed: FailedGeneration[] = [];
  readonly noops: NoOpChild[] = [];
  /**
   * Work in flight (parallel search): evaluations of a node and children being written from it. The action scores
   * count them as visits already made (virtual loss), so concurrent picks spread out; they are never journaled.
   */
  private readonly pendingEvaluations = new Map<string, number>();
  private readonly pendingChildren = new Map<string, number>();
  /** What the search's validation can tell apart (its latest `validation` line); none before it is said. */
  resampling: Resampling | undefined;

  /** Same program, same tasks, same outcome: a sample is never scored twice, and payloads decide a score. */
  get deterministic(): boolean {
    return this.resampling?.deterministic ?? false;
  }

  /** Marks an action as in flight; the returned function marks it done. */
  reserve(kind: 'evaluate' | 'generate', id: string): () => void {
    const map = kind === 'evaluate' ? this.pendingEvaluations : this.pendingChildren;
    map.set(id, (map.get(id) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (map.get(id) ?? 1) - 1;
      if (left > 0) map.set(id, left);
      else map.delete(id);
    };
  }

  /** May the node be evaluated again: deterministic, only while a sample it has not been scored on is left. */
  canEvaluate(node: TreeNode): boolean {
    return !this.resampling?.deterministic || this.visits(node) < this.resampling.samples;
  }

  /** n(v) with the evaluations of v in flight counted. */
  visits(node: TreeNode): number {
    return node.scores.length + (this.pendingEvaluations.get(node.id) ?? 0);
  }

  /**
   * m(v) with the children being written from v counted, and the children of v that changed nothing: each was an
   * expansion that gained nothing (Δ = 0), so a parent whose edits keep changing nothing is expanded less.
   */
  width(id: string): number {
    return (
      this.evaluatedChildren(id).length +
      this.noops.filter((x) => x.parent === id).length +
      (this.pendingChildren.get(id) ?? 0)
    );
  }

  /** N with every action in flight counted (each ends in one evaluation, or none for a failed child). */
  totalVisits(): number {
    let pending = 0;
    for (const k of this.pendingEvaluations.values()) pending += k;
    for (const k of this.pendingChildren.values()) pending += k;
    return this.totalEvaluations() + pending;
  }

  add(node: TreeNode): void {
    if (this.nodes.has(node.id)) throw new Error(`node ${node.id} already exists`);
    if (node.parent !== null && !this.nodes.has(node.parent))
      throw new Error(`node ${node.id}: unknown parent ${node.parent}`);
    this.nodes.set(node.id, node);
  }

  get(id: string): TreeNode {
    const n = this.nodes.get(id);
    if (!n) throw new Error(`no node ${id}`);
    return n;
  }

  get root(): TreeNode {
    for (const n of this.nodes.values()) if (n.kind === 'root') return n;
    throw new Error('the tree has no root');
  }

  evaluated(): TreeNode[] {
    return [...this.nodes.values()].filter((n) => n.scores.length > 0);
  }

  /** Nodes whose validation evaluations so far all scored nothing, oldest first: they are owed a first score. */
  awaitingFirstScore(): TreeNode[] {
    return [...this.nodes.values()].filter(
      (n) => n.scores.length === 0 && n.unscored?.some((u) => u.split === 'train'),
    );
  }

  /** N: all full evaluations so far. */
  totalEvaluations(): number {
    let n = 0;
    for (const node of this.nodes.values()) n += node.scores.length;
    return n;
  }

  q(node: TreeNode): number {
    return node.scores.reduce((a, b) => a + b, 0) / Math.max(1, node.scores.length);
  }

  children(id: string): TreeNode[] {
    return [...this.nodes.values()].filter((n) => n.parent === id);
  }

  /** m(v): evaluated children. */
  evaluatedChildren(id: string): TreeNode[] {
    return this.children(id).filter((c) => c.scores.length > 0);
  }

  /** S(v): summed improvement of the evaluated children over the parent's snapshot, by `delta` (the paper's Δ unless given). */
  sumImprovement(id: string, delta: (firstScore: number, parentSnapshot: number) => number = improvement): number {
    return this.evaluatedChildren(id).reduce((s, c) => s + delta(c.scores[0] as number, c.parentSnapshot ?? 0), 0);
  }

  /** The root always; seeds when `seedsExpandable`; another node once its parent has `minWidth` evaluated children. */
  expandable(node: TreeNode, minWidth: number, seedsExpandable = false): boolean {
    if (node.kind === 'root') return true;
    if (node.scores.length === 0 || node.parent === null) return false;
    if (node.kind === 'seed' && seedsExpandable) return true;
    return this.evaluatedChildren(node.parent).length >= minWidth;
  }
}
