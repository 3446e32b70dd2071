// Steps in flight: at most `parallel`, started in order; the work in flight counts as visits in the action scores.
import { describe, expect, it } from 'vitest';
import { ucbCandidates } from '../../../engine/search/policies/ucb.ts';
import { runStepPool } from '../../../engine/search/step-pool.ts';
import { SearchTree, type TreeNode } from '../../../engine/search/tree.ts';
import { DEFAULT_UCB } from '../../../engine/search/ucb.ts';

const tick = () => new Promise((r) => setImmediate(r));

/** Steps that finish when the test says so, recording what ran at once. */
function gatedSteps() {
  const gates = new Map<number, () => void>();
  const started: number[] = [];
  let running = 0;
  let most = 0;
  const run = (step: number) =>
    new Promise<void>((resolve) => {
      started.push(step);
      most = Math.max(most, ++running);
      gates.set(step, () => {
        running--;
        resolve();
      });
    });
  return { run, started, gates, most: () => most };
}

describe('step pool', () => {
  it('keeps at most K steps in flight, starts them in order, and one finishing lets the next start', async () => {
    const s = gatedSteps();
    const done = runStepPool({ steps: [1, 2, 3, 4, 5], parallel: 2, stopped: () => false, run: s.run });
    await tick();
    expect(s.started).toEqual([1, 2]);
    s.gates.get(2)?.();
    await tick();
    await tick();
    expect(s.started).toEqual([1, 2, 3]);
    for (const step of [1, 3]) s.gates.get(step)?.();
    await tick();
    await tick();
    for (const step of [4, 5]) s.gates.get(step)?.();
    await done;
    expect(s.started).toEqual([1, 2, 3, 4, 5]);
    expect(s.most()).toBe(2);
  });

  it('with K = 1 runs one step after the other', async () => {
    const order: string[] = [];
    await runStepPool({
      steps: [1, 2, 3],
      parallel: 1,
      stopped: () => false,
      run: async (step) => {
        order.push(`start ${step}`);
        await tick();
        order.push(`end ${step}`);
      },
    });
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  it('starts nothing once stopped, and awaits the steps in flight before it throws the first error', async () => {
    let stop = false;
    const g = gatedSteps();
    const pool = runStepPool({ steps: [1, 2, 3, 4], parallel: 2, stopped: () => stop, run: g.run });
    await tick();
    stop = true;
    g.gates.get(2)?.();
    await tick();
    await tick();
    g.gates.get(1)?.();
    await pool;
    expect(g.started).toEqual([1, 2]);
    const s = gatedSteps();
    const failing = runStepPool({
      steps: [1, 2, 3],
      parallel: 2,
      stopped: () => false,
      run: (step) => (step === 1 ? Promise.reject(new Error('boom')) : s.run(step)),
    });
    await tick();
    await tick();
    let settled = false;
    void failing.catch(() => (settled = true));
    await tick();
    expect(settled).toBe(false);
    s.gates.get(2)?.();
    await expect(failing).rejects.toThrow('boom');
    expect(s.started).toEqual([2]);
  });

  it('stops when the before-step hook throws (a simulated kill), after the steps in flight', async () => {
    const finished: number[] = [];
    const pool = runStepPool({
      steps: [1, 2, 3],
      parallel: 2,
      stopped: () => false,
      beforeStep: (step) => {
        if (step === 3) throw new Error('killed');
      },
      run: async (step) => {
        await tick();
        finished.push(step);
      },
    });
    await expect(pool).rejects.toThrow('killed');
    expect(finished).toEqual([1, 2]);
  });
});

describe('pending visits (virtual loss)', () => {
  const node = (id: string, parent: string | null, kind: TreeNode['kind'], scores: number[]): TreeNode => ({
    id,
    parent,
    kind,
    dir: `programs/${id}`,
    hash: id,
    step: 0,
    parentSnapshot: parent ? 0 : null,
    scores,
    samples: scores.map((_, i) => i),
  });
  function tree() {
    const t = new SearchTree();
    t.add(node('root', null, 'root', [0.2]));
    t.add(node('seed-a', 'root', 'seed', [0.6]));
    t.add(node('seed-b', 'root', 'seed', [0.55]));
    return t;
  }
  const score = (t: SearchTree, kind: string, id: string) =>
    ucbCandidates(t, DEFAULT_UCB).find((c) => c.kind === kind && c.node === id)?.score as number;

  it('lowers the score of what is in flight, so a concurrent pick goes elsewhere, and restores it when done', () => {
    const t = tree();
    const best = () => ucbCandidates(t, DEFAULT_UCB).reduce((a, b) => (b.score > a.score ? b : a));
    const first = best();
    expect(first).toMatchObject({ kind: 'generate', node: 'seed-a' });
    const before = score(t, 'generate', 'seed-a');
    const release = t.reserve('generate', 'seed-a');
    expect(score(t, 'generate', 'seed-a')).toBeLessThan(before);
    expect(t.totalVisits()).toBe(t.totalEvaluations() + 1);
    const second = best();
    expect(second).not.toEqual(first);
    const evalBefore = score(t, 'evaluate', 'seed-b');
    const releaseEval = t.reserve('evaluate', 'seed-b');
    expect(t.visits(t.get('seed-b'))).toBe(2);
    expect(score(t, 'evaluate', 'seed-b')).toBeLessThan(evalBefore);
    release();
    releaseEval();
    release();
    expect(t.totalVisits()).toBe(t.totalEvaluations());
    expect(best()).toEqual(first);
  });
});
