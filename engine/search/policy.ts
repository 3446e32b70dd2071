// A search policy chooses each step's action: re-evaluate a known program, or generate a child of one. Policies
// are small and interchangeable (UCB is the engine's; greedy, uniform-random and ALMA-style softmax exist to be
// measured against it). Every choice carries the competing scores, which the journal keeps.
import type { SearchTree } from './tree.ts';
import type { UcbParams } from './ucb.ts';

export type ActionKind = 'evaluate' | 'generate';

export interface ScoredAction {
  kind: ActionKind;
  node: string;
  score: number;
}

export interface Choice {
  action: ScoredAction;
  /** Every action the policy weighed, with its score (a probability for sampling policies). */
  candidates: ScoredAction[];
}

export interface SearchPolicy {
  readonly name: string;
  choose(tree: SearchTree, params: UcbParams, random: () => number): Choice;
}

/** Highest score wins; ties go to generation, then to the earlier node (stable). */
export function argmaxAction(candidates: ScoredAction[]): ScoredAction {
  let best = candidates[0];
  if (!best) throw new Error('no action is available');
  for (const c of candidates.slice(1)) {
    if (c.score > best.score + 1e-12) best = c;
    else if (Math.abs(c.score - best.score) <= 1e-12 && c.kind === 'generate' && best.kind === 'evaluate') best = c;
  }
  return best;
}
