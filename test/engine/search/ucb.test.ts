import { describe, expect, it } from 'vitest';
import { argmaxAction } from '../../../engine/search/policy.ts';
import { ucbCandidates, ucbPaperPolicy, ucbPolicy } from '../../../engine/search/policies/ucb.ts';
import type { SearchPolicy } from '../../../engine/search/policy.ts';
import { selectFinal } from '../../../engine/search/selection.ts';
import { SearchTree, type TreeNode } from '../../../engine/search/tree.ts';
import { DEFAULT_UCB, evalScore, genScore, improvement, lcb, potential, prior, signedImprovement } from '../../../engine/search/ucb.ts';

const p = { ...DEFAULT_UCB, seedsExpandable: false };

describe('formulas (hand-computed, c = 0.2, λ = 0.5, κ = 1)', () => {
  it('evaluate score and lower confidence bound', () => {
    // ln 8 / 2 = 1.03972; sqrt = 1.01966; × 0.2 = 0.20393
    expect(evalScore(0.5, 2, 8, p)).toBeCloseTo(0.70393, 5);
    expect(lcb(0.5, 2, 8, p)).toBeCloseTo(0.29607, 5);
  });

  it('improvement, prior and potential', () => {
    expect(improvement(0.7, 0.5)).toBeCloseTo(0.2, 12);
    expect(improvement(0.4, 0.5)).toBe(0);
    // Spread to the best node within c_e: the paper's prior.
    expect(prior(0.25, 0.1, 0.3, p)).toBeCloseTo(0.075, 12);
    expect(prior(0.05, 0.1, 0.3, p)).toBe(0);
    // Spread 0.5 > c_e = 0.2: scaled by 0.2 / 0.5, so the best node's prior is λ · c_e = 0.1.
    expect(prior(0.6, 0.1, 0.6, p)).toBeCloseTo(0.1, 12);
    expect(prior(0.35, 0.1, 0.6, p)).toBeCloseTo(0.05, 12);
    // Scale-free: the same tree on a reward scaled by 3 (root 0) gives the same prior.
    expect(prior(0.9, 0, 1.2, p)).toBeCloseTo(prior(0.3, 0, 0.4, p), 12);
    // (0.3 + 1 · 0.25) / (2 + 1)
    expect(potential(0.3, 2, 0.25, p)).toBeCloseTo(0.183333, 5);
  });

  it('generate score', () => {
    // 0.6 + 0.183333 + 0.2 · sqrt(ln 8 / 3) = 0.6 + 0.183333 + 0.166511
    expect(genScore(0.6, 0.183333, 2, 8, p)).toBeCloseTo(0.949844, 5);
  });
});

function node(id: string, parent: string | null, scores: number[], snap: number | null, kind: TreeNode['kind'] = 'child'): TreeNode {
  return { id, parent, kind, dir: id, hash: id, step: 0, parentSnapshot: snap, scores, samples: scores.map((_, i) => i) };
}

describe('on a tree', () => {
  // r [0.1]; a (seed of r, snapshot 0.1) [0.5, 0.3]; b (child of r, snapshot 0.1) [0.2]; c (child of a, snapshot 0.4) [0.6]
  const tree = new SearchTree();
  tree.add(node('r', null, [0.1], null, 'root'));
  tree.add(node('a', 'r', [0.5, 0.3], 0.1, 'seed'));
  tree.add(node('b', 'r', [0.2], 0.1));
  tree.add(node('c', 'a', [0.6], 0.4));

  it('derives N, m, S and the expansion rule (w = 2)', () => {
    expect(tree.totalEvaluations()).toBe(5);
    expect(tree.sumImprovement('r')).toBeCloseTo(0.5, 12); // 0.4 + 0.1
    expect(tree.sumImprovement('a')).toBeCloseTo(0.2, 12);
    expect(['r', 'a', 'b', 'c'].map((id) => tree.expandable(tree.get(id), 2))).toEqual([true, true, true, false]);
  });

  it('scores every action as computed by hand and picks the best', () => {
    const scores = Object.fromEntries(ucbCandidates(tree, p).map((c) => [`${c.kind}:${c.node}`, c.score]));
    // U_gen(r) = 0.1 + (0.5 + 0)/3 + 0.2·sqrt(ln5/3) = 0.1 + 0.166667 + 0.146491
    expect(scores['generate:r']).toBeCloseTo(0.413158, 5);
    // Spread Q* − Q(r) = 0.6 − 0.1 = 0.5 > c_e: priors scaled by 0.4. π(a) = 0.5 · 0.3 · 0.4 = 0.06.
    // U_gen(a) = 0.4 + (0.2 + 0.06)/2 + 0.2·sqrt(ln5/2) = 0.4 + 0.13 + 0.179412
    expect(scores['generate:a']).toBeCloseTo(0.709412, 5);
    // π(b) = 0.5 · 0.1 · 0.4 = 0.02; U_gen(b) = 0.2 + 0.02/1 + 0.2·sqrt(ln5) = 0.2 + 0.02 + 0.253727
    expect(scores['generate:b']).toBeCloseTo(0.473727, 5);
    expect(scores['generate:c']).toBeUndefined(); // its parent has one evaluated child
    expect(scores['evaluate:c']).toBeCloseTo(0.853727, 5);
    expect(scores['evaluate:a']).toBeCloseTo(0.579412, 5);
    expect(argmaxAction(ucbCandidates(tree, p))).toMatchObject({ kind: 'evaluate', node: 'c' });
  });

  it('selects by lower confidence bound, which a single lucky evaluation does not win', () => {
    expect(selectFinal(tree, p, 'lcb').id).toBe('c'); // 0.6 − 0.2537 = 0.3463 > a: 0.4 − 0.1794 = 0.2206
    const lucky = new SearchTree();
    lucky.add(node('r', null, [0.1], null, 'root'));
    lucky.add(node('steady', 'r', [0.62, 0.6, 0.61, 0.6, 0.62, 0.61], 0.1, 'seed'));
    lucky.add(node('lucky', 'r', [0.7], 0.1));
    expect(selectFinal(lucky, p, 'max-mean').id).toBe('lucky');
    expect(selectFinal(lucky, p, 'lcb').id).toBe('steady');
  });

  it('lets a lone seed be expanded when seedsExpandable is on', () => {
    const lone = new SearchTree();
    lone.add(node('r', null, [0], null, 'root'));
    lone.add(node('s', 'r', [0.7], 0, 'seed'));
    expect(lone.expandable(lone.get('s'), 2, false)).toBe(false);
    expect(lone.expandable(lone.get('s'), 2, true)).toBe(true);
    // Strict rule: re-evaluating the seed (≥ 0.7) always beats generating from a root that scores 0 (≈ 0.5).
    expect(argmaxAction(ucbCandidates(lone, p))).toMatchObject({ kind: 'evaluate', node: 's' });
    expect(argmaxAction(ucbCandidates(lone, DEFAULT_UCB))).toMatchObject({ kind: 'generate', node: 's' });
  });

  it('re-evaluates on a tree whose root scores 0, where the unscaled prior never did', () => {
    // LoCoMo-like: root 0, a seed at 0.7 whose two children did not improve on it, each expanded once, worse again.
    const t = new SearchTree();
    t.add(node('r', null, [0], null, 'root'));
    t.add(node('s', 'r', [0.7], 0, 'seed'));
    t.add(node('c1', 's', [0.66], 0.7));
    t.add(node('c2', 's', [0.68], 0.7));
    t.add(node('c3', 'c1', [0.6], 0.66));
    t.add(node('c4', 'c2', [0.6], 0.68));
    const N = t.totalEvaluations();
    const evalS = evalScore(0.7, 1, N, p);
    // The paper's π = λ · Q(c2) = 0.34: U_gen(c2) = 0.68 + 0.34/2 + 0.2·sqrt(ln 6 / 2) = 1.039 beats U_eval(s) = 0.968.
    expect(genScore(0.68, potential(0, 1, 0.5 * 0.68, p), 1, N, p)).toBeGreaterThan(evalS);
    // Scaled by c_e / 0.7, π(c2) = 0.097: every generate action falls below the seed's second evaluation.
    const chosen = argmaxAction(ucbCandidates(t, DEFAULT_UCB));
    expect(chosen).toMatchObject({ kind: 'evaluate', node: 's' });
    expect(chosen.score).toBeCloseTo(evalS, 12);
  });

  it('breaks ties toward generation', () => {
    const chosen = argmaxAction([
      { kind: 'evaluate', node: 'x', score: 0.5 },
      { kind: 'generate', node: 'y', score: 0.5 },
    ]);
    expect(chosen).toEqual({ kind: 'generate', node: 'y', score: 0.5 });
  });
});

describe("a parent's losing children (ucb: Δ± in S; ucb-paper: the paper's Δ)", () => {
  it('count a loss in Δ±, bounded by c_g', () => {
    expect(signedImprovement(0.7, 0.5, p)).toBeCloseTo(0.2, 12);
    expect(signedImprovement(0.45, 0.5, p)).toBeCloseTo(-0.05, 12);
    // A collapse weighs as a loss of c_g = 0.2.
    expect(signedImprovement(0.1, 0.9, p)).toBeCloseTo(-0.2, 12);
  });

  it("lower the parent's generate score below the same parent's with children that changed nothing", () => {
    const withChildren = (score: number) => {
      const t = new SearchTree();
      t.add(node('r', null, [0], null, 'root'));
      t.add(node('a', 'r', [0.8], 0, 'seed'));
      t.add(node('a1', 'a', [score], 0.8));
      t.add(node('a2', 'a', [score], 0.8));
      const gen = (rule: 'signed' | 'paper') => ucbCandidates(t, DEFAULT_UCB, rule).find((c) => c.kind === 'generate' && c.node === 'a')!.score;
      return { signed: gen('signed'), paper: gen('paper') };
    };
    const losing = withChildren(0.6);
    const inert = withChildren(0.8);
    // N = 4, m = 2, π(a) = λ · 0.8 scaled by c_e / 0.8 = 0.1. Losing: S = −0.4, G = (−0.4 + 0.1)/3 = −0.1.
    expect(losing.signed).toBeCloseTo(0.8 - 0.1 + 0.2 * Math.sqrt(Math.log(4) / 3), 5);
    expect(losing.signed).toBeLessThan(inert.signed - 0.1);
    // The paper's Δ cannot tell a losing child from one that changed nothing.
    expect(losing.paper).toBeCloseTo(inert.paper, 12);
  });

  /**
   * A search's choices on a tree whose evaluations are known: parent A (0.9) writes children that lose (0.6), B (0.85)
   * children that change nothing measurable (0.85); a re-evaluation scores what the node scored. Returns how many of
   * `steps` steps generated from A.
   */
  function expansionsOfA(policy: SearchPolicy, steps: number): number {
    const t = new SearchTree();
    t.resampling = { deterministic: true, samples: 3 };
    t.add(node('r', null, [0], null, 'root'));
    t.add(node('A', 'r', [0.9], 0, 'seed'));
    t.add(node('B', 'r', [0.85], 0, 'seed'));
    const branch = (id: string): string => (t.get(id).parent === 'r' ? id : branch(t.get(id).parent as string));
    let fromA = 0;
    for (let step = 1; step <= steps; step++) {
      const { action } = policy.choose(t, DEFAULT_UCB, () => 0.5);
      const target = t.get(action.node);
      if (action.kind === 'evaluate') {
        target.scores.push(target.scores[0] as number);
        continue;
      }
      if (action.node === 'A') fromA++;
      const score = branch(action.node) === 'A' ? 0.6 : 0.85;
      t.add({ ...node(`n${step}`, action.node, [score], t.q(target)), step });
    }
    return fromA;
  }

  it('do not expand a child below its parent (ucb), where the paper would', () => {
    const t = new SearchTree();
    t.add(node('r', null, [0], null, 'root'));
    t.add(node('a', 'r', [0.8], 0, 'seed'));
    t.add(node('a1', 'a', [0.6], 0.8));
    t.add(node('a2', 'a', [0.85], 0.8));
    const generates = (rule: 'signed' | 'paper') => ucbCandidates(t, DEFAULT_UCB, rule).filter((c) => c.kind === 'generate').map((c) => c.node);
    expect(generates('signed')).not.toContain('a1');
    expect(generates('signed')).toContain('a2');
    expect(generates('paper')).toContain('a1');
  });

  it('do not re-evaluate a child that scored as its parent on every sample (ucb, deterministic), where the paper would', () => {
    const t = new SearchTree();
    t.resampling = { deterministic: true, samples: 2 };
    t.add(node('r', null, [0], null, 'root'));
    t.add(node('a', 'r', [0.8, 0.7], 0, 'seed'));
    t.add(node('echo', 'a', [0.8], 0.75));
    t.add(node('moved', 'a', [0.81], 0.75));
    const evaluates = (rule: 'signed' | 'paper') => ucbCandidates(t, DEFAULT_UCB, rule).filter((c) => c.kind === 'evaluate').map((c) => c.node);
    expect(evaluates('signed')).not.toContain('echo');
    expect(evaluates('signed')).toContain('moved');
    expect(evaluates('paper')).toContain('echo');
    // Scored on another sample than its parent's, or in an environment that is not deterministic: evaluated as any.
    t.get('echo').samples = [1];
    expect(evaluates('signed')).toContain('echo');
    t.get('echo').samples = [0];
    t.resampling = { deterministic: false, samples: 2 };
    expect(evaluates('signed')).toContain('echo');
  });

  it('turn a search away from a parent whose children keep losing', () => {
    const ours = expansionsOfA(ucbPolicy, 12);
    const paper = expansionsOfA(ucbPaperPolicy, 12);
    expect(ours).toBeLessThan(paper);
    expect(ours).toBeLessThanOrEqual(2);
  });
});
