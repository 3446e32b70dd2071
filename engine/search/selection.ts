// Which program the selection rule ranks first: the best lower confidence bound (default), or the best mean (the usual
// choice elsewhere, kept to measure against: a lucky single evaluation wins it). The search's final pick (final-phase.ts)
// applies this rule among the programs at least as good as the best starting one, and takes a written child only when
// a paired test on validation resolves it as better.
import type { SearchTree, TreeNode } from './tree.ts';
import { lcb, type UcbParams } from './ucb.ts';

export type Selection = 'lcb' | 'max-mean';

export function selectionScore(tree: SearchTree, node: TreeNode, p: UcbParams, how: Selection): number {
  const q = tree.q(node);
  return how === 'lcb' ? lcb(q, node.scores.length, tree.totalEvaluations(), p) : q;
}

/**
 * The node of the best lower confidence bound and that bound, ties to the earlier node: what a step's progress line
 * shows as "best LCB" (the handed-over pick adds a floor and a holdout: selectFinal, final-phase.ts). Undefined
 * before any node has a score.
 */
export function bestLcb(tree: SearchTree, p: UcbParams): { node: TreeNode; lcb: number } | undefined {
  let best: { node: TreeNode; lcb: number } | undefined;
  for (const node of tree.evaluated()) {
    const bound = selectionScore(tree, node, p, 'lcb');
    if (!best || bound > best.lcb + 1e-12) best = { node, lcb: bound };
  }
  return best;
}

/** argmax of the rule over the evaluated nodes `eligible` keeps, the root included; ties to the earlier node. */
export function selectFinal(
  tree: SearchTree,
  p: UcbParams,
  how: Selection = 'lcb',
  eligible: (n: TreeNode) => boolean = () => true,
): TreeNode {
  let best: TreeNode | undefined;
  let bestScore = -Infinity;
  for (const node of tree.evaluated()) {
    if (!eligible(node)) continue;
    const s = selectionScore(tree, node, p, how);
    if (s > bestScore + 1e-12) {
      best = node;
      bestScore = s;
    }
  }
  if (!best) throw new Error('no evaluated node to select');
  return best;
}
