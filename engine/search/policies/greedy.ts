// Greedy: always generate a child of the best program so far (highest mean), never re-evaluate.
import type { Choice, SearchPolicy } from '../policy.ts';

export const greedyPolicy: SearchPolicy = {
  name: 'greedy',
  choose(tree): Choice {
    const candidates = tree.evaluated().map((n) => ({ kind: 'generate' as const, node: n.id, score: tree.q(n) }));
    const best = candidates.reduce((a, b) => (b.score > a.score ? b : a));
    return { action: best, candidates };
  },
};
