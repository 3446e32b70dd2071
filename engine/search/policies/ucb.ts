// The budget-aware UCB policy: evaluate actions on every evaluated node that may be evaluated again (one that has
// scored every validation sample of a deterministic environment may not), generate actions on expandable ones (the
// prior scaled by the tree's spread, see ucb.ts). `ucb` sums Δ± into S(v), so a parent's losing children lower its
// generate score, does not expand a child whose mean is below its parent's, and does not re-evaluate a child that
// scored exactly as its parent on every sample both were scored on in a deterministic environment (its edit changed
// no reward: another sample measures the parent again); `ucb-paper` sums the paper's Δ, a loss counting as a child
// that changed nothing, and expands and evaluates every node the tree allows.
import { argmaxAction, type Choice, type ScoredAction, type SearchPolicy } from '../policy.ts';
import type { SearchTree, TreeNode } from '../tree.ts';
import { evalScore, genScore, improvement, potential, prior, signedImprovement, type UcbParams } from '../ucb.ts';

/** Which improvement S(v) sums: Δ± (losses count) or the paper's Δ. */
export type ImprovementRule = 'signed' | 'paper';

export function ucbCandidates(tree: SearchTree, p: UcbParams, rule: ImprovementRule = 'signed'): ScoredAction[] {
  // Visits count the work in flight (parallel search): a node being evaluated or expanded looks visited already.
  const N = tree.totalVisits();
  const qRoot = tree.q(tree.root);
  const evaluated = tree.evaluated();
  const qBest = Math.max(qRoot, ...evaluated.map((n) => tree.q(n)));
  const delta = rule === 'signed' ? (s: number, snap: number) => signedImprovement(s, snap, p) : improvement;
  const out: ScoredAction[] = [];
  for (const node of evaluated) {
    const q = tree.q(node);
    if (tree.canEvaluate(node) && !(rule === 'signed' && echoesParent(tree, node))) out.push({ kind: 'evaluate', node: node.id, score: evalScore(q, tree.visits(node), N, p) });
    if (tree.expandable(node, p.minWidth, p.seedsExpandable) && !(rule === 'signed' && belowParent(tree, node))) {
      const m = tree.width(node.id);
      const g = potential(tree.sumImprovement(node.id, delta), m, prior(q, qRoot, qBest, p), p);
      out.push({ kind: 'generate', node: node.id, score: genScore(q, g, m, N, p) });
    }
  }
  return out;
}

/**
 * A written child whose mean is below its parent's (policy `ucb`): its children would start from a copy weaker than
 * one the tree has, and spend their steps winning back its loss; the parent (or a sibling) is expanded instead.
 */
function belowParent(tree: SearchTree, node: TreeNode): boolean {
  if (node.kind !== 'child' || node.parent === null) return false;
  return tree.q(node) < tree.q(tree.get(node.parent)) - 1e-9;
}

/**
 * A written child of a deterministic search whose every score equals its parent's on the same sample: the edit
 * changed payloads but no reward there (intranets, seed 1: 4 of 12 steps re-evaluated such children). Another
 * sample would most likely measure the parent again; the step is spent on a new child instead.
 */
export function echoesParent(tree: SearchTree, node: TreeNode): boolean {
  if (!tree.deterministic || node.kind !== 'child' || node.parent === null || node.scores.length === 0) return false;
  const parent = tree.get(node.parent);
  return node.scores.every((s, i) => {
    const j = parent.samples.indexOf(node.samples[i] as number);
    return j >= 0 && Math.abs((parent.scores[j] as number) - s) < 1e-12;
  });
}

export const ucbPolicy: SearchPolicy = {
  name: 'ucb',
  choose(tree, params): Choice {
    const candidates = ucbCandidates(tree, params, 'signed');
    return { action: argmaxAction(candidates), candidates };
  },
};

export const ucbPaperPolicy: SearchPolicy = {
  name: 'ucb-paper',
  choose(tree, params): Choice {
    const candidates = ucbCandidates(tree, params, 'paper');
    return { action: argmaxAction(candidates), candidates };
  },
};
