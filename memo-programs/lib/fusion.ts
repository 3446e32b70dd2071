// Fusion: pending ranked lists (and hits already scored) become one scored list of hits. Reciprocal rank fusion
// needs only ranks; weighted and max fusion use each list's scores scaled to its best one.
import { type Hit, type RankedList, type RetrievalState, named, type Stage, sortHits } from './retrieval-state.ts';
import { declareStage, int } from './tunables.ts';

export const RRF_FUSE = declareStage({
  name: 'rrfFuse',
  role: 'fuse',
  summary: 'reciprocal rank fusion of the pending lists',
  options: { k: int(60, [1, 1000], [1, 200]) },
});
export const WEIGHTED_FUSE = declareStage({
  name: 'weightedFuse',
  role: 'fuse',
  summary: "fusion by weighted scores scaled to each list's best",
  options: {},
});
export const MAX_FUSE = declareStage({
  name: 'maxFuse',
  role: 'fuse',
  summary: "fusion by each unit's best scaled score",
  options: {},
});

/** Each list's labels with scores in [0, 1]: its own scores over its best, or 1 − rank / length without scores. */
function scaled(list: RankedList): [number, number][] {
  const top = list.scores?.length ? Math.max(...list.scores.map((s) => Math.max(0, s))) : 0;
  return list.labels.map((label, i) => {
    const s = list.scores?.[i];
    return [label, s !== undefined && top > 0 ? Math.max(0, s) / top : 1 - i / Math.max(1, list.labels.length)];
  });
}

function toHits(scores: Map<number, number>, firstVia: Map<number, string>, raw: Map<number, number>): Hit[] {
  return sortHits(
    [...scores].map(([label, score]) => {
      const r = raw.get(label);
      return { label, score, via: firstVia.get(label) ?? 'fused', ...(r !== undefined ? { raw: r } : {}) };
    }),
  );
}

/** Each label's own score in the first list that gave it one. */
function rawScores(lists: RankedList[]): Map<number, number> {
  const raw = new Map<number, number>();
  for (const list of lists) {
    if (!list.scores) continue;
    list.labels.forEach((label, i) => {
      const s = list.scores?.[i];
      if (s !== undefined && !raw.has(label)) raw.set(label, s);
    });
  }
  return raw;
}

/** Reciprocal rank fusion: score = Σ weight / (k + rank), rank from 1; a label repeated in one list counts once. */
export function fuseRrf(lists: RankedList[], k = 60): Hit[] {
  const scores = new Map<number, number>();
  const via = new Map<number, string>();
  for (const list of lists) {
    const seen = new Set<number>();
    list.labels.forEach((label, i) => {
      if (seen.has(label)) return;
      seen.add(label);
      scores.set(label, (scores.get(label) ?? 0) + list.weight / (k + i + 1));
      if (!via.has(label)) via.set(label, list.name);
    });
  }
  return toHits(scores, via, rawScores(lists));
}

/** Weighted fusion: score = Σ weight × (the list's score scaled to its best). */
export function fuseWeighted(lists: RankedList[]): Hit[] {
  const scores = new Map<number, number>();
  const via = new Map<number, string>();
  for (const list of lists) {
    for (const [label, s] of new Map(scaled(list).reverse())) {
      scores.set(label, (scores.get(label) ?? 0) + list.weight * s);
      if (!via.has(label)) via.set(label, list.name);
    }
  }
  return toHits(scores, via, rawScores(lists));
}

/** Max fusion: score = the best weight × scaled score any list gives the label. */
export function fuseMax(lists: RankedList[]): Hit[] {
  const scores = new Map<number, number>();
  const via = new Map<number, string>();
  for (const list of lists) {
    for (const [label, s] of scaled(list)) {
      const v = list.weight * s;
      if (v > (scores.get(label) ?? -Infinity)) {
        scores.set(label, v);
        via.set(label, list.name);
      }
    }
  }
  return toHits(scores, via, rawScores(lists));
}

/** Hits already scored, as a list that fusion can take in with the pending ones. */
function hitsAsList(hits: Hit[]): RankedList[] {
  return hits.length
    ? [{ name: 'earlier', weight: 1, labels: hits.map((h) => h.label), scores: hits.map((h) => h.score) }]
    : [];
}

/** The pending lists fused with the earlier hits; a unit found before keeps its via and its own score. */
function fuseWithEarlier(state: RetrievalState, fuse: (lists: RankedList[]) => Hit[]): Hit[] {
  const earlier = new Map(state.hits.map((h) => [h.label, h]));
  return fuse([...state.lists, ...hitsAsList(state.hits)]).map((h) => {
    const before = earlier.get(h.label);
    if (!before) return h;
    const { raw: _, ...rest } = h;
    return { ...rest, via: before.via, ...(before.raw !== undefined ? { raw: before.raw } : {}) };
  });
}

function fuseStage(name: string, fuse: (lists: RankedList[]) => Hit[]): Stage {
  return named(name, (state) => {
    if (!state.lists.length) return;
    state.hits = fuseWithEarlier(state, fuse);
    state.lists = [];
  });
}

/**
 * Stage: fuses the pending lists by reciprocal rank (k: the rank offset, default 60).
 * @reads lists, hits
 * @writes hits (replaced, when lists are pending, by the fusion of the pending lists and the earlier hits, which count as one more list named "earlier" of weight 1 in their order; a unit keeps the via and raw score of its earlier hit, a new one the raw score of the first list that scored it), lists (emptied)
 * @order hits best first: score descending, ties by label ascending
 */
export function rrfFuse(options: { k?: number } = {}): Stage {
  const { k } = RRF_FUSE.resolve(options);
  return fuseStage('rrfFuse', (lists) => fuseRrf(lists, k));
}

/**
 * Stage: fuses the pending lists by weighted, scaled scores.
 * @reads lists, hits
 * @writes hits (replaced, when lists are pending, as rrfFuse does, the earlier hits counting as one more list of weight 1), lists (emptied)
 * @order hits best first: score descending, ties by label ascending
 */
export function weightedFuse(): Stage {
  return fuseStage('weightedFuse', fuseWeighted);
}

/**
 * Stage: fuses the pending lists by each label's best scaled score.
 * @reads lists, hits
 * @writes hits (replaced, when lists are pending, as rrfFuse does, the earlier hits counting as one more list of weight 1), lists (emptied)
 * @order hits best first: score descending, ties by label ascending
 */
export function maxFuse(): Stage {
  return fuseStage('maxFuse', fuseMax);
}

/**
 * Fuses pending lists by reciprocal rank when a stage needs hits and no fusion stage ran.
 * @reads lists, hits
 * @writes hits, lists (only when lists are pending — that is how it tells that no fusion ran since the last search stage: it fuses them with the earlier hits as rrfFuse({ k: 60 }) does and empties lists; with no list pending it returns state.hits as they are)
 */
export function ensureHits(state: RetrievalState): Hit[] {
  if (state.lists.length) {
    state.hits = fuseWithEarlier(state, (lists) => fuseRrf(lists));
    state.lists = [];
  }
  return state.hits;
}
