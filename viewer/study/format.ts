// How a study's numbers are written, the same in every output (study.md, study.csv, study.tex, study.html): three
// decimals, as `automemo eval` and `automemo search` print a score, so a number in a table can be found in a command's
// output.
import type { MeanInterval, PairedComparison } from '../../engine/study/statistics.ts';

export const score = (x: number | null | undefined): string =>
  x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(3);

export const signed = (x: number | null | undefined): string =>
  x === null || x === undefined || !Number.isFinite(x) ? '—' : `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;

/** "0.712 ± 0.041 (n = 3)", or the mean alone where one value has no interval. */
export function interval(i: MeanInterval): string {
  if (i.n === 0) return '—';
  return i.halfWidth === undefined
    ? `${score(i.mean)} (n = 1)`
    : `${score(i.mean)} ± ${score(i.halfWidth)} (n = ${i.n})`;
}

export const pValue = (p: number): string => (p < 0.001 ? '< 0.001' : p.toFixed(3));

/** "+0.031 [+0.010, +0.052]; 12/80/3; p = 0.004" */
export function comparison(c: PairedComparison | undefined): string {
  if (!c) return '—';
  if (c.tasks === 0) return 'no common tasks';
  return `${signed(c.mean)} [${signed(c.low)}, ${signed(c.high)}]; ${c.wins}/${c.ties}/${c.losses}; p ${c.permutationP < 0.001 ? '< 0.001' : `= ${c.permutationP.toFixed(3)}`}${c.significant ? '' : ' (n.s.)'}`;
}

/** The line every output states under its title: how a composed environment is scored, and the protocol. */
export const SOURCE_WEIGHTING =
  "a composed environment (--env a,b,c) scores the mean of its sources' scores: each source weighs the same, whatever its number of tasks";
