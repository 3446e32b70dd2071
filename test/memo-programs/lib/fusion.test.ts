import { describe, expect, it } from 'vitest';
import { ensureHits, fuseMax, fuseRrf, fuseWeighted, rrfFuse } from '../../../memo-programs/lib/fusion.ts';
import type { RankedList } from '../../../memo-programs/lib/retrieval-state.ts';
import { stateFor } from '../../support/pipeline-store.ts';

const a: RankedList = { name: 'a', weight: 1, labels: [1, 2, 3], scores: [10, 5, 1] };
const b: RankedList = { name: 'b', weight: 1, labels: [3, 1], scores: [0.9, 0.3] };

describe('fusion', () => {
  it('reciprocal rank fusion sums weight / (k + rank), counting a repeated label once per list', () => {
    const hits = fuseRrf([a, b, { name: 'c', weight: 2, labels: [2, 2] }], 60);
    const score = new Map(hits.map((h) => [h.label, h.score]));
    expect(score.get(1)).toBeCloseTo(1 / 61 + 1 / 62, 9);
    expect(score.get(2)).toBeCloseTo(1 / 62 + 2 / 61, 9);
    expect(score.get(3)).toBeCloseTo(1 / 63 + 1 / 61, 9);
    expect(hits[0]!.label).toBe(2);
    expect(hits[0]!.via).toBe('a');
    // Each hit keeps the score the first list that scored it gave (a cosine, a BM25 score): label 3's is a's.
    expect(hits.map((h) => [h.label, h.raw])).toEqual([
      [2, 5],
      [1, 10],
      [3, 1],
    ]);
  });

  it("weighted fusion adds scores scaled to each list's best", () => {
    const hits = fuseWeighted([a, { ...b, weight: 0.5 }]);
    const score = new Map(hits.map((h) => [h.label, h.score]));
    expect(score.get(1)).toBeCloseTo(1 + 0.5 * (0.3 / 0.9), 9);
    expect(score.get(3)).toBeCloseTo(0.1 + 0.5, 9);
  });

  it('max fusion keeps the best scaled score and the list that gave it', () => {
    const hits = fuseMax([a, b]);
    // raw: the label's own score in the first list that scored it.
    expect(hits.find((h) => h.label === 3)).toEqual({ label: 3, score: 1, via: 'b', raw: 1 });
    expect(hits.find((h) => h.label === 1)).toEqual({ label: 1, score: 1, via: 'a', raw: 10 });
  });

  it('lists without scores rank by position', () => {
    const hits = fuseMax([{ name: 'r', weight: 1, labels: [7, 8] }]);
    expect(hits.map((h) => [h.label, h.score])).toEqual([
      [7, 1],
      [8, 0.5],
    ]);
  });

  it('a fusion stage empties the pending lists and keeps hits scored before it', async () => {
    const state = await stateFor('bear');
    state.hits = [{ label: 4, score: 1, via: 'earlier-stage' }];
    state.lists = [a];
    await rrfFuse()(state);
    expect(state.lists).toEqual([]);
    expect(state.hits.map((h) => h.label).sort()).toEqual([1, 2, 3, 4]);
    expect(state.hits.find((h) => h.label === 4)?.via).toBe('earlier-stage');
    state.lists = [b];
    expect(ensureHits(state).length).toBe(4);
    expect(state.lists).toEqual([]);
  });
});
