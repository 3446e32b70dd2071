// The page's number formatting, bounds and colour scale (viewer/page/dom.js), loaded as the browser loads
// it: a classic script that adds itself to window.Automemo.
import { describe, expect, it } from 'vitest';
import { loadPageScripts } from './page-script.ts';

interface Interval {
  low: number;
  high: number;
  clipped: boolean;
}
interface PageApi {
  fmt(x: number | null, digits?: number): string;
  bound(x: number): number;
  interval(n: { q: number | null; ci: number | null }): Interval | null;
  intervalText(n: { q: number | null; ci: number | null }): string;
  scoreColour(q: number | null): string;
}


const rgb = (s: string) => (/^rgb\((\d+),(\d+),(\d+)\)$/.exec(s) as RegExpExecArray).slice(1).map(Number) as [number, number, number];

describe('page numbers and colours', () => {
  const A = loadPageScripts<PageApi>('dom.js');

  it('never prints -0: a value that rounds to zero prints as zero', () => {
    expect(A.fmt(-0.0001, 2)).toBe('0.00');
    expect(A.fmt(-0.004, 2)).toBe('0.00');
    expect(A.fmt(-0, 3)).toBe('0.000');
    expect(A.fmt(-0.006, 2)).toBe('-0.01');
    expect(A.fmt(0.3444)).toBe('0.344');
    expect(A.fmt(null)).toBe('—');
    expect(A.fmt(Number.NaN)).toBe('—');
  });

  it('clips a confidence interval to [0, 1] and says when it did', () => {
    expect(A.interval({ q: 0.95, ci: 0.2 })).toEqual({ low: 0.75, high: 1, clipped: true });
    expect(A.interval({ q: 0.1, ci: 0.3 })).toEqual({ low: 0, high: 0.4, clipped: true });
    expect(A.interval({ q: 0.5, ci: 0.1 })).toEqual({ low: 0.4, high: 0.6, clipped: false });
    expect(A.interval({ q: null, ci: null })).toBeNull();
    expect(A.intervalText({ q: 1, ci: 0.166 })).toBe('0.834 … 1.000');
    expect(A.intervalText({ q: 0, ci: 0.166 })).toBe('0.000 … 0.166');
  });

  it('colours a mean on the absolute scale 0–1, whatever else the run holds', () => {
    expect(A.scoreColour(0)).toBe('rgb(215,48,39)');
    expect(A.scoreColour(0.5)).toBe('rgb(254,224,139)');
    expect(A.scoreColour(1)).toBe('rgb(26,152,80)');
    expect(A.scoreColour(1.7)).toBe(A.scoreColour(1));
    expect(A.scoreColour(null)).toBe('#c8c8c8');
    // 0.344 is below the middle of the scale: orange, red over green; never green, even as a run's best mean.
    const [r, g] = rgb(A.scoreColour(0.344));
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(r);
    // The function takes no run range: the same mean has the same colour in every run.
    expect((A.scoreColour as (...args: unknown[]) => string)(0.344, 0.1, 0.344)).toBe(A.scoreColour(0.344));
  });
});
