// The study's statistics against cases whose answers are known: identical programs, a program better on every task,
// and textbook examples (Student's t table, the sign test by hand, Fisher's randomization test of Darwin's maize).
import { describe, expect, it } from 'vitest';
import {
  bootstrapInterval,
  comparePaired,
  comparisonSentence,
  meanInterval,
  permutationTestP,
  signTestP,
  tCritical95,
  winsTiesLosses,
} from '../../../engine/study/statistics.ts';
import { pairedDifference } from '../../../engine/search/ties.ts';

const rewards = (xs: number[], prefix = 't') => new Map(xs.map((x, i) => [`${prefix}${i}`, x]));

describe('intervals across search seeds', () => {
  it('uses the t quantile for small n (the textbook table) and approaches the normal one', () => {
    expect(tCritical95(1)).toBeCloseTo(12.706, 3);
    expect(tCritical95(2)).toBeCloseTo(4.303, 3);
    expect(tCritical95(9)).toBeCloseTo(2.262, 3);
    // Exact values 2.0211 (40 df) and 1.9840 (100 df).
    expect(tCritical95(40)).toBeCloseTo(2.0211, 3);
    expect(tCritical95(100)).toBeCloseTo(1.984, 3);
  });

  it('gives x̄ ± t·s/√n, and no interval from one seed', () => {
    // 0.6, 0.7, 0.8: mean 0.7, s = 0.1, half-width 4.303 · 0.1 / √3 = 0.2484.
    const i = meanInterval([0.6, 0.7, 0.8]);
    expect(i.mean).toBeCloseTo(0.7, 12);
    expect(i.halfWidth).toBeCloseTo(0.24843, 4);
    expect(i.method).toBe('t-interval, 2 df');
    expect(meanInterval([0.5])).toEqual({ n: 1, mean: 0.5, method: 'one value: no interval' });
  });
});

describe('paired comparisons', () => {
  it('identical programs: difference 0, all ties, not significant', () => {
    const a = rewards([1, 0, 0.5, 1, 1, 0, 0.25, 1]);
    const c = comparePaired(a, new Map(a));
    expect(c).toMatchObject({ tasks: 8, mean: 0, low: 0, high: 0, wins: 0, ties: 8, losses: 0, signP: 1, permutationP: 1, significant: false });
    expect(comparisonSentence('the pick', 'bm25', c, 'test')).toMatch(/cannot be told apart from bm25.*not significant at 5%/);
  });

  it('a program better on every one of 40 tasks is significant, and its interval excludes 0', () => {
    const base = Array.from({ length: 40 }, (_, i) => (i % 5) / 10);
    const c = comparePaired(rewards(base.map((x) => x + 0.3)), rewards(base), 'seed');
    expect(c.wins).toBe(40);
    expect(c.mean).toBeCloseTo(0.3, 12);
    expect(c.low).toBeGreaterThan(0);
    expect(c.signP).toBeCloseTo(2 / 2 ** 40, 20);
    expect(c.permutationExact).toBe(false);
    expect(c.permutationP).toBeCloseTo(1 / 10_001, 8);
    expect(c.significant).toBe(true);
    expect(comparisonSentence('the pick', 'bm25', c, 'test')).toMatch(/the pick is better than bm25: \+0\.300 .*significant at 5%/);
  });

  it('only pairs the tasks both programs were scored on', () => {
    const c = comparePaired(new Map([['a', 1], ['b', 1], ['c', 0]]), new Map([['b', 0], ['c', 0], ['d', 1]]));
    expect(c).toMatchObject({ tasks: 2, wins: 1, ties: 1, losses: 0 });
  });

  it('the sign test by hand: 9 of 10 differing tasks one way is p = 2 · 11/1024', () => {
    expect(signTestP({ wins: 9, losses: 1 })).toBeCloseTo((2 * 11) / 1024, 12);
    expect(signTestP({ wins: 5, losses: 5 })).toBe(1);
    expect(signTestP({ wins: 0, losses: 0 })).toBe(1);
  });

  it("Fisher's randomization test of Darwin's Zea mays: two-sided p = 1726/32768", () => {
    // Crossed minus self-fertilized heights, eighths of an inch (Fisher, The Design of Experiments, §21).
    const d = [49, -67, 8, 16, 6, 23, 28, 41, 14, 29, 56, 24, 75, 60, -48];
    const r = permutationTestP(d, 0);
    expect(r.exact).toBe(true);
    expect(r.p).toBeCloseTo(1726 / 32768, 12);
  });

  it('the seeded bootstrap gives the same interval every time, and a different seed a close one', () => {
    const d = Array.from({ length: 50 }, (_, i) => ((i * 37) % 11) / 10 - 0.4);
    expect(bootstrapInterval(d, 3)).toEqual(bootstrapInterval(d, 3));
    const other = bootstrapInterval(d, 4);
    expect(Math.abs(other.low - bootstrapInterval(d, 3).low)).toBeLessThan(0.03);
  });

  it('wins, ties and losses ignore rounding noise', () => {
    expect(winsTiesLosses([0.1, -0.2, 1e-12, 0])).toEqual({ wins: 1, ties: 2, losses: 1 });
  });

  it("the search's tie check uses the same definitions (mean, z·s/√n, differing tasks)", () => {
    const d = pairedDifference(rewards([1, 1, 0, 1]), rewards([0, 1, 0, 0]));
    // d = 1, 0, 0, 1: mean 0.5, s² = 1/3, half-width 1.96 · √(1/12).
    expect(d).toEqual({ tasks: 4, mean: 0.5, halfWidth: 1.96 * Math.sqrt(1 / 12), differing: 2 });
  });
});
