// Maximal marginal relevance: pick k items that are relevant and unlike each other.
// score(i) = λ · relevance(i) − (1 − λ) · max_{j picked} cosine(i, j)
import { cosine } from './cosine.ts';

export interface MmrCandidate<T = unknown> {
  item: T;
  vector: readonly number[];
  relevance: number;
}

export function mmr<T>(candidates: readonly MmrCandidate<T>[], k: number, lambda = 0.5): MmrCandidate<T>[] {
  const picked: MmrCandidate<T>[] = [];
  const left = candidates.slice();
  const maxSim = new Array<number>(left.length).fill(-Infinity);
  while (picked.length < k && left.length > 0) {
    let best = 0;
    let bestScore = -Infinity;
    for (let i = 0; i < left.length; i++) {
      const c = left[i] as MmrCandidate<T>;
      const redundancy = picked.length === 0 ? 0 : (maxSim[i] as number);
      const score = lambda * c.relevance - (1 - lambda) * redundancy;
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    const chosen = left.splice(best, 1)[0] as MmrCandidate<T>;
    maxSim.splice(best, 1);
    picked.push(chosen);
    for (let i = 0; i < left.length; i++) {
      maxSim[i] = Math.max(maxSim[i] as number, cosine((left[i] as MmrCandidate<T>).vector, chosen.vector));
    }
  }
  return picked;
}
