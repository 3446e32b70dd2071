// Uniform random parent: generate a child of any evaluated program, each equally likely.
import type { Choice, SearchPolicy } from '../policy.ts';

export const randomPolicy: SearchPolicy = {
  name: 'random',
  choose(tree, _params, random): Choice {
    const nodes = tree.evaluated();
    const candidates = nodes.map((n) => ({ kind: 'generate' as const, node: n.id, score: 1 / nodes.length }));
    return { action: candidates[Math.floor(random() * candidates.length)] ?? (candidates[0] as never), candidates };
  },
};
