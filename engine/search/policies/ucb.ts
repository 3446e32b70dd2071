// The budget-aware UCB policy: evaluate actions on every evaluated node that may be evaluated again (one that has
// scored every validation sample of a deterministic environment may not), generate actions on expandable ones (the
// prior scaled by the tree's spread, see ucb.ts).
import { argmaxAction, type Choice, type ScoredAction, type SearchPolicy } from '../policy.ts';
import type { SearchTree } from '../tree.ts';
import { evalScore, genScore, potential, prior, type UcbParams } from '../ucb.ts';

export function ucbCandidates(tree: SearchTree, p: UcbParams): ScoredAction[] {
  // Visits count the work in flight (parallel search): a node being evaluated or expanded looks visited already.
  const N = tree.totalVisits();
  const qRoot = tree.q(tree.root);
  const evaluated = tree.evaluated();
  const qBest = Math.max(qRoot, ...evaluated.map((n) => tree.q(n)));
  const out: ScoredAction[] = [];
  for (const node of evaluated) {
    const q = tree.q(node);
    if (tree.canEvaluate(node)) out.push({ kind: 'evaluate', node: node.id, score: evalScore(q, tree.visits(node), N, p) });
    if (tree.expandable(node, p.minWidth, p.seedsExpandable)) {
      const m = tree.width(node.id);
      const g = potential(tree.sumImprovement(node.id), m, prior(q, qRoot, qBest, p), p);
      out.push({ kind: 'generate', node: node.id, score: genScore(q, g, m, N, p) });
    }
  }
  return out;
}

export const ucbPolicy: SearchPolicy = {
  name: 'ucb',
  choose(tree, params): Choice {
    const candidates = ucbCandidates(tree, params);
    return { action: argmaxAction(candidates), candidates };
  },
};
