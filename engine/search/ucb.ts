// The action scores of the budget-aware tree search, each formula in one place (docs/design.md, "The tree
// search"). Q(v) mean full-evaluation score, n(v) its evaluations, N all evaluations so far, r the root,
// m(v) evaluated children, S(v) their summed improvement: Δ± (losses count; policy `ucb`) or the paper's Δ
// (`ucb-paper`).

export interface UcbParams {
  /** Exploration weight of evaluate actions (and of the LCB). */
  cEval: number;
  /** Exploration weight of generate actions. */
  cGen: number;
  /** Weight of the root-relative prior. */
  lambda: number;
  /** Strength of the prior in the potential. */
  kappa: number;
  /** Evaluated children a parent needs before its children may be expanded. */
  minWidth: number;
  /**
   * Seeds may be expanded whatever the root's width. With one seed and a root that scores 0 (no memory), the
   * root's generate score never reaches the seed's evaluate score, and a strict rule would re-evaluate the seed
   * for the whole budget; seeds are complete designs, so the width rule is kept for generated programs.
   */
  seedsExpandable: boolean;
}

/** The paper's Table 7 (plus the seed rule above). */
export const DEFAULT_UCB: UcbParams = { cEval: 0.2, cGen: 0.2, lambda: 0.5, kappa: 1.0, minWidth: 2, seedsExpandable: true };

const safeLn = (N: number) => Math.log(Math.max(N, 1));

/** U_eval(v) = Q(v) + c_e · sqrt(ln N / n(v)) */
export function evalScore(q: number, n: number, N: number, p: UcbParams): number {
  return q + p.cEval * Math.sqrt(safeLn(N) / n);
}

/** Δ(u) = max(0, s_u − Q_snap(v)): a child's first score over its parent's mean when it was generated (the paper's). */
export function improvement(firstScore: number, parentSnapshot: number): number {
  return Math.max(0, firstScore - parentSnapshot);
}

/**
 * Δ±(u) = max(−c_g, s_u − Q_snap(v)): the child's gain, or its loss bounded by the generate exploration weight.
 *
 * The paper's Δ counts a losing child as 0, exactly as a child that changed nothing: a parent whose children keep
 * losing (a crossover that halves the score, tried again with another tail) keeps the best Q and so keeps being
 * expanded, its potential only diluted by m. Counted signed, losses pull G(v) below zero and the search turns to
 * other parents after a loss or two. Bounded by c_g, one collapse (−0.5) weighs as much as a plain loss of c_g: the
 * agent never repeats the losing edit, so its size says little about the parent's next child.
 */
export function signedImprovement(firstScore: number, parentSnapshot: number, p: UcbParams): number {
  return Math.max(-p.cGen, firstScore - parentSnapshot);
}

/**
 * π(v) = λ · max(0, Q(v) − Q(r)) · min(1, c_e / (Q* − Q(r))), Q* the best mean in the tree.
 *
 * The paper's prior is in reward units while the exploration bonuses are c · sqrt(ln N / n), with c = 0.2. Where
 * the root scores near the programs (its benchmarks: the spread Q* − Q(r) within c_e = 0.2), the factor is 1 and
 * π is the paper's. Where the root scores 0 (LoCoMo's evidence recall without memory: spread 0.7 and more), the
 * paper's π is 0.35 for every seed and child, larger than any exploration bonus, so a fresh node's U_gen always beat
 * every U_eval: nothing was ever re-evaluated and the LCB choice was the max-mean choice. Scaled by the spread, the
 * best node's prior is λ · c_e whatever the reward's scale, and nodes keep their order; the prior tips the exploration
 * terms instead of replacing them.
 */
export function prior(q: number, qRoot: number, qBest: number, p: UcbParams): number {
  const spread = qBest - qRoot;
  const scale = spread > p.cEval ? p.cEval / spread : 1;
  return p.lambda * Math.max(0, q - qRoot) * scale;
}

/** G(v) = (S(v) + κ·π(v)) / (m(v) + κ); with Δ± in S(v), G(v) may be negative. */
export function potential(sumImprovement: number, children: number, priorValue: number, p: UcbParams): number {
  return (sumImprovement + p.kappa * priorValue) / (children + p.kappa);
}

/** U_gen(v) = Q(v) + G(v) + c_g · sqrt(ln N / (1 + m(v))) */
export function genScore(q: number, g: number, children: number, N: number, p: UcbParams): number {
  return q + g + p.cGen * Math.sqrt(safeLn(N) / (1 + children));
}

/** LCB(v) = Q(v) − c_e · sqrt(ln N / n(v)) */
export function lcb(q: number, n: number, N: number, p: UcbParams): number {
  return q - p.cEval * Math.sqrt(safeLn(N) / n);
}
