// Diversity: a payload that repeats one episode or one fact wastes the budget. Maximal marginal relevance over the
// units' word sets, and a soft cap on hits per source episode.
import { ensureHits } from './fusion.ts';
import { jaccard } from './jaccard.ts';
import { stemmedTokens } from './stem.ts';
import { type Hit, named, type Stage, sortHits } from './retrieval-state.ts';
import { declareStage, float, int } from './tunables.ts';
import type { UnitStore } from './unit-store.ts';

export const MMR_STAGE = declareStage({
  name: 'mmrStage',
  role: 'diversity',
  summary: 'maximal marginal relevance over the top k',
  options: { k: int(60, [1, 500], [5, 300]), lambda: float(0.7, [0, 1], [0.3, 1]) },
});
export const CAP_PER_SOURCE = declareStage({
  name: 'capPerSource',
  role: 'diversity',
  summary: 'a soft cap of hits per source episode',
  options: { max: int(4, [1, 1000], [1, 30]), decay: float(0.75, [0, 10], [0.1, 1]) },
});
export const DEDUPE = declareStage({
  name: 'dedupe',
  role: 'diversity',
  summary: 'drops hits that repeat a better-ranked one',
  options: { similarity: float(0.9, [0.5, 1], [0.5, 1]) },
});

/** The top `k` hits reordered by MMR: λ·score/top − (1−λ)·max word-set Jaccard to those already picked; the rest follow. */
export function mmrOrder(hits: Hit[], store: UnitStore, k: number, lambda: number): Hit[] {
  const head = hits.slice(0, k);
  const top = head[0]?.score || 1;
  const sets = new Map(head.map((h) => [h.label, new Set(store.units[h.label]?.tokens ?? [])]));
  const picked: Hit[] = [];
  const maxSim = new Map<number, number>(head.map((h) => [h.label, 0]));
  const left = head.slice();
  while (left.length) {
    let best = 0;
    let bestScore = -Infinity;
    left.forEach((h, i) => {
      const s = (lambda * h.score) / top - (1 - lambda) * (maxSim.get(h.label) ?? 0);
      if (s > bestScore) {
        bestScore = s;
        best = i;
      }
    });
    const chosen = left.splice(best, 1)[0] as Hit;
    picked.push(chosen);
    const cs = sets.get(chosen.label) as Set<string>;
    for (const h of left)
      maxSim.set(h.label, Math.max(maxSim.get(h.label) ?? 0, jaccard(sets.get(h.label) as Set<string>, cs)));
  }
  // Scores are rewritten to follow the new order, so later stages keep it.
  return [...picked, ...hits.slice(k)].map((h, i, all) => ({ ...h, score: (all.length - i) / all.length }));
}

/**
 * Stage: MMR over the top `k` hits (default 60), λ = `lambda` (default 0.7; 1 = relevance only).
 * @reads lists, hits, store
 * @writes hits (the top k reordered by MMR over the units' word sets, the rest after them; every score rewritten to (n − position) / n so later stages keep the order), lists (fused by ensureHits first when pending)
 * @order hits best first: score descending
 */
export function mmrStage(options: { k?: number; lambda?: number } = {}): Stage {
  const { k, lambda } = MMR_STAGE.resolve(options);
  return named('mmrStage', (state) => {
    state.hits = mmrOrder(ensureHits(state), state.store, k, lambda);
  });
}

/** Hits beyond the first `max` of one source episode scaled by decay per extra hit. */
export function capSources(hits: Hit[], store: UnitStore, max: number, decay: number): Hit[] {
  const seen = new Map<number, number>();
  const out = hits.map((h) => {
    const source = store.units[h.label]?.source ?? -1;
    const n = seen.get(source) ?? 0;
    seen.set(source, n + 1);
    return n >= max ? { ...h, score: h.score * decay ** (n - max + 1) } : { ...h };
  });
  return sortHits(out);
}

/**
 * Stage: a soft cap of `max` hits per source episode (default 4); hits beyond it are scaled by `decay` (default 0.75) each.
 * @reads lists, hits, store
 * @writes hits (the n-th hit of a source beyond max scaled by decay^(n − max), then resorted), lists (fused by ensureHits first when pending)
 * @order hits best first: score descending, ties by label ascending
 */
export function capPerSource(options: { max?: number; decay?: number } = {}): Stage {
  const { max, decay } = CAP_PER_SOURCE.resolve(options);
  return named('capPerSource', (state) => {
    state.hits = capSources(ensureHits(state), state.store, max, decay);
  });
}

/** Hits dedupe compares; those below pass untouched (a payload never reaches that far down the list). */
const DEDUPE_DEPTH = 500;

/**
 * Stage: drops hits that repeat a better-ranked hit — the same words (stemmed content words, without a leading
 * "Speaker: ") with a Jaccard similarity of at least `similarity` (default 0.9; 1 drops exact repeats only). Chat logs
 * and agent traces say the same thing many times, often in other mouths; a payload that shows it once has room for
 * something else.
 * @reads lists, hits, store
 * @writes hits (the repeats removed, the rest in their order), lists (fused by ensureHits first, when no hits were scored yet)
 * @order hits best first: score descending
 */
export function dedupe(options: { similarity?: number } = {}): Stage {
  const threshold = DEDUPE.resolve(options).similarity;
  return named('dedupe', (state) => {
    const hits = ensureHits(state);
    const kept: Hit[] = [];
    const sets: Set<string>[] = [];
    for (const h of hits.slice(0, DEDUPE_DEPTH)) {
      const text = (state.store.units[h.label]?.text ?? '').replace(/^[^:\n]{1,40}: /, '');
      const set = new Set(stemmedTokens(text));
      if (set.size && sets.some((s) => jaccard(s, set) >= threshold)) continue;
      kept.push(h);
      sets.push(set);
    }
    state.hits = [...kept, ...hits.slice(DEDUPE_DEPTH)];
  });
}
