import { describe, expect, it } from 'vitest';
import { centroid, cosine, jaccard, jaro, jaroWinkler, mmr, normalize } from 'automemo/lib';

describe('jaccard', () => {
  it('is |A∩B| / |A∪B| over sets', () => {
    expect(jaccard(['a', 'b', 'c'], ['b', 'c', 'd'])).toBeCloseTo(2 / 4);
    expect(jaccard(['a', 'a', 'b'], ['a', 'b'])).toBe(1);
    expect(jaccard([], [])).toBe(1);
    expect(jaccard(['a'], [])).toBe(0);
  });
});

describe('jaro-winkler', () => {
  it('matches the textbook values', () => {
    expect(jaro('MARTHA', 'MARHTA')).toBeCloseTo(0.944444, 5);
    expect(jaroWinkler('MARTHA', 'MARHTA')).toBeCloseTo(0.961111, 5);
    expect(jaro('DWAYNE', 'DUANE')).toBeCloseTo(0.822222, 5);
    expect(jaroWinkler('DWAYNE', 'DUANE')).toBeCloseTo(0.84, 5);
    expect(jaroWinkler('DIXON', 'DICKSONX')).toBeCloseTo(0.813333, 5);
  });

  it('handles identical, empty and disjoint strings', () => {
    expect(jaroWinkler('same', 'same')).toBe(1);
    expect(jaroWinkler('', '')).toBe(1);
    expect(jaroWinkler('abc', '')).toBe(0);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
  });
});

describe('cosine', () => {
  it('computes cosine, normalization and centroids', () => {
    expect(cosine([1, 0], [0, 1])).toBe(0);
    expect(cosine([1, 2, 3], [2, 4, 6])).toBeCloseTo(1);
    expect(cosine([0, 0], [1, 1])).toBe(0);
    expect(normalize([3, 4])).toEqual([0.6, 0.8]);
    expect(centroid([[0, 2], [2, 0]])).toEqual([1, 1]);
    expect(() => cosine([1], [1, 2])).toThrow(/differ in length/);
  });
});

describe('mmr', () => {
  const cands = [
    { item: 'A', vector: [1, 0], relevance: 1 },
    { item: 'A-copy', vector: [1, 0], relevance: 0.95 },
    { item: 'C', vector: [0, 1], relevance: 0.5 },
  ];

  it('prefers a diverse second pick at λ = 0.5', () => {
    // A-copy: 0.5·0.95 − 0.5·1 = −0.025; C: 0.5·0.5 − 0 = 0.25.
    expect(mmr(cands, 2, 0.5).map((c) => c.item)).toEqual(['A', 'C']);
  });

  it('is plain relevance ranking at λ = 1', () => {
    expect(mmr(cands, 2, 1).map((c) => c.item)).toEqual(['A', 'A-copy']);
    expect(mmr(cands, 10, 1)).toHaveLength(3);
  });
});
