// ALMA-style selection (zksha/alma core/memo_manager.py): score = sigmoid(Q − Q_root) − 0.5·log1p(visits), sampled
// with a softmax at temperature 0.5, always generating. Visits count children generated from a node. (ALMA's own
// code resets visits when a reward is updated and re-seeds its RNG every selection; both are not copied.)
import type { Choice, SearchPolicy } from '../policy.ts';

const TEMPERATURE = 0.5;

export const almaPolicy: SearchPolicy = {
  name: 'alma-softmax',
  choose(tree, _params, random): Choice {
    const qRoot = tree.q(tree.root);
    const nodes = tree.evaluated();
    const raw = nodes.map((n) => 1 / (1 + Math.exp(-(tree.q(n) - qRoot))) - 0.5 * Math.log1p(tree.children(n.id).length));
    const max = Math.max(...raw);
    const weights = raw.map((s) => Math.exp((s - max) / TEMPERATURE));
    const total = weights.reduce((a, b) => a + b, 0);
    const candidates = nodes.map((n, i) => ({ kind: 'generate' as const, node: n.id, score: (weights[i] as number) / total }));
    let r = random();
    for (const c of candidates) {
      r -= c.score;
      if (r <= 0) return { action: c, candidates };
    }
    return { action: candidates[candidates.length - 1] as (typeof candidates)[number], candidates };
  },
};
