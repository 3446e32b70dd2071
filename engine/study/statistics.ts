// The statistics a study reports, one function per formula (docs/design.md, "Studies"). x̄ the mean, s the sample
// standard deviation (n − 1), d_i = a_i − b_i the per-task paired differences of two programs scored on the same
// tasks. Everything here is pure: the same inputs (and seed) give the same numbers, so a study resumed or recomputed
// prints the same table.
import { hashedRandom } from '../random.ts';

/** Differences closer to 0 than this are ties: rewards are sums of a few fractions, never this close otherwise. */
export const TIE_EPSILON = 1e-9;
/** The significance level every sentence and flag uses. */
export const ALPHA = 0.05;

/** x̄ = Σ x_i / n (0 for no values). */
export function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

/** s² = Σ (x_i − x̄)² / (n − 1) (0 for fewer than two values). */
export function sampleVariance(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
}

/** The normal 97.5% quantile, z with P(|Z| ≤ z) = 0.95, as the textbooks round it (and the search has always used). */
export const Z_975 = 1.96;

/** t_{0.975, df} for df = 1…30 (the textbook table, to 3 decimals). */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/**
 * t_{0.975, df}, Student's t quantile for a two-sided 95% interval: the table for df ≤ 30; above, the Cornish–Fisher
 * expansion z + (z³ + z)/(4 df) + (5z⁵ + 16z³ + 3z)/(96 df²), within 0.001 of the exact value there.
 */
export function tCritical95(df: number): number {
  if (!(df >= 1)) return Infinity;
  const whole = Math.floor(df);
  if (whole <= T_975.length) return T_975[whole - 1] as number;
  const z = Z_975;
  return z + (z ** 3 + z) / (4 * whole) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * whole ** 2);
}

export interface MeanInterval {
  n: number;
  mean: number;
  /** Half-width of the 95% interval; undefined with one value (no spread to estimate). */
  halfWidth?: number;
  /** How the interval was computed, for a table's footnote. */
  method: string;
}

/**
 * x̄ ± t_{0.975, n−1} · s / √n: the 95% t-interval of a mean over a few values (search seeds: n is small, the spread
 * unknown, so the t quantile rather than the normal one). One value has no interval.
 */
export function meanInterval(xs: readonly number[]): MeanInterval {
  const n = xs.length;
  if (n < 2) return { n, mean: mean(xs), method: n === 1 ? 'one value: no interval' : 'no values' };
  return {
    n,
    mean: mean(xs),
    halfWidth: tCritical95(n - 1) * Math.sqrt(sampleVariance(xs) / n),
    method: `t-interval, ${n - 1} df`,
  };
}

/** d_i = a_i − b_i over the ids both have, in a's order. */
export function pairedDifferences(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number[] {
  const d: number[] = [];
  for (const [id, x] of a) {
    const y = b.get(id);
    if (y !== undefined) d.push(x - y);
  }
  return d;
}

/** z_{0.975} · s_d / √n: the normal-approximation 95% half-width of a mean of many paired differences. */
export function normalHalfWidth(d: readonly number[]): number {
  return d.length ? Z_975 * Math.sqrt(sampleVariance(d) / d.length) : Infinity;
}

export interface WinsTiesLosses {
  wins: number;
  ties: number;
  losses: number;
}

/** Tasks where a scored above b (d_i > 0), the same (|d_i| ≤ ε), below (d_i < 0). */
export function winsTiesLosses(d: readonly number[]): WinsTiesLosses {
  let wins = 0;
  let losses = 0;
  for (const x of d) {
    if (x > TIE_EPSILON) wins++;
    else if (x < -TIE_EPSILON) losses++;
  }
  return { wins, ties: d.length - wins - losses, losses };
}

/** Resamples of the bootstrap and the Monte Carlo permutation test. */
export const RESAMPLES = 10_000;

/**
 * The percentile bootstrap 95% interval of x̄_d: R means of n differences drawn with replacement (a seeded resampler,
 * so the interval is the same every time), and their 2.5% and 97.5% quantiles.
 */
export function bootstrapInterval(
  d: readonly number[],
  seed: string | number,
  resamples = RESAMPLES,
): { low: number; high: number } {
  const n = d.length;
  if (n === 0) return { low: 0, high: 0 };
  const random = hashedRandom('bootstrap', seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += d[Math.floor(random() * n)] as number;
    means[r] = sum / n;
  }
  means.sort();
  const at = (q: number) => means[Math.min(resamples - 1, Math.max(0, Math.round(q * (resamples - 1))))] as number;
  return { low: at(0.025), high: at(0.975) };
}

/** log C(n, k) = log n! − log k! − log (n − k)!, by sums of logs (exact enough for n in the thousands). */
function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/**
 * The exact two-sided sign test: ties dropped, m = wins + losses, k = min(wins, losses),
 * p = min(1, 2 · Σ_{i ≤ k} C(m, i) / 2^m). m = 0 gives p = 1 (nothing tells them apart).
 */
export function signTestP({ wins, losses }: Pick<WinsTiesLosses, 'wins' | 'losses'>): number {
  const m = wins + losses;
  if (m === 0) return 1;
  const k = Math.min(wins, losses);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += Math.exp(logChoose(m, i) - m * Math.LN2);
  return Math.min(1, 2 * tail);
}

/** Nonzero differences up to which the permutation test enumerates every sign assignment (2^16 = 65,536). */
export const EXACT_PERMUTATION_MAX = 16;

/**
 * The paired permutation (sign-flip) test of H0: each d_i is as likely −d_i. T = |Σ d_i|; p = the share of sign
 * assignments with |Σ ± d_i| ≥ T. Exact (all 2^m assignments of the m nonzero differences) for m ≤ 16; above, a
 * seeded Monte Carlo estimate (1 + #{T* ≥ T}) / (1 + R), which is never 0.
 */
export function permutationTestP(
  d: readonly number[],
  seed: string | number,
  resamples = RESAMPLES,
): { p: number; exact: boolean } {
  const nz = d.filter((x) => Math.abs(x) > TIE_EPSILON);
  const m = nz.length;
  if (m === 0) return { p: 1, exact: true };
  const observed = Math.abs(nz.reduce((a, b) => a + b, 0)) - 1e-12;
  if (m <= EXACT_PERMUTATION_MAX) {
    let extreme = 0;
    const total = 2 ** m;
    for (let mask = 0; mask < total; mask++) {
      let s = 0;
      for (let i = 0; i < m; i++) s += mask & (1 << i) ? -(nz[i] as number) : (nz[i] as number);
      if (Math.abs(s) >= observed) extreme++;
    }
    return { p: extreme / total, exact: true };
  }
  const random = hashedRandom('permutation', seed);
  let extreme = 0;
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (const x of nz) s += random() < 0.5 ? -x : x;
    if (Math.abs(s) >= observed) extreme++;
  }
  return { p: (1 + extreme) / (1 + resamples), exact: false };
}

export interface PairedComparison extends WinsTiesLosses {
  /** Tasks both were scored on. */
  tasks: number;
  /** x̄_d: the mean of a − b over them. */
  mean: number;
  /** 95% percentile-bootstrap interval of x̄_d. */
  low: number;
  high: number;
  /** Exact two-sided sign test. */
  signP: number;
  /** Two-sided paired permutation test (exact for few differing tasks, else Monte Carlo). */
  permutationP: number;
  permutationExact: boolean;
  /** permutationP < ALPHA: the decision every sentence and flag states. */
  significant: boolean;
}

/** a against b task by task: the difference, its bootstrap interval, wins/ties/losses, the sign and permutation tests. */
export function comparePaired(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  seed: string | number = 0,
): PairedComparison {
  const d = pairedDifferences(a, b);
  const wtl = winsTiesLosses(d);
  const { low, high } = bootstrapInterval(d, seed);
  const perm = permutationTestP(d, seed);
  return {
    tasks: d.length,
    mean: mean(d),
    low,
    high,
    ...wtl,
    signP: signTestP(wtl),
    permutationP: perm.p,
    permutationExact: perm.exact,
    significant: d.length > 0 && perm.p < ALPHA,
  };
}

const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;
const pValue = (p: number) => (p < 0.001 ? '< 0.001' : `= ${p.toFixed(3)}`);

/** "+0.012 (95% CI −0.010 to +0.031; 4 wins, 100 ties, 3 losses; permutation p = 0.710, sign p = 1.000)". */
export function describeComparison(c: PairedComparison): string {
  return `${signed(c.mean)} (95% CI ${signed(c.low)} to ${signed(c.high)}; ${c.wins} wins, ${c.ties} ties, ${c.losses} losses over ${c.tasks} tasks; permutation p ${pValue(c.permutationP)}, sign p ${pValue(c.signP)})`;
}

/**
 * The plain sentence a table carries under a comparison: whether a is told apart from b at 5%, and which way. Said
 * the same way in study.md, the HTML page and the CLI.
 */
export function comparisonSentence(a: string, b: string, c: PairedComparison, where: string): string {
  if (c.tasks === 0) return `${a} and ${b} share no scored task on ${where}: they cannot be compared.`;
  if (!c.significant)
    return `On ${where}, ${a} cannot be told apart from ${b}: the difference ${describeComparison(c)} is not significant at 5%.`;
  return `On ${where}, ${a} is ${c.mean > 0 ? 'better' : 'worse'} than ${b}: ${describeComparison(c)}, significant at 5%.`;
}
