// Progress as a user watching a run sees it, on a terminal or through a pipe: lines while evaluations run (a piped
// 34-minute run printed nothing until its table), a time left that ignores step 0, and a step whose children
// changed nothing said once.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bestLcb } from '../../engine/search/selection.ts';
import { repoRoot } from '../../foundation/paths.ts';
import { progressPrinter } from '../../cli/progress.ts';
import { childWords, stepProgress, stepsLeftMs } from '../../cli/search-progress.ts';
import { CostLedger } from '../../foundation/llm/ledger.ts';
import type { SearchProgress } from '../../engine/search/search.ts';
import { emptyState } from '../../engine/search/search-state.ts';
import { SearchTree } from '../../engine/search/tree.ts';
import { DEFAULT_UCB } from '../../engine/search/ucb.ts';
import type { JournalEvent } from '../../engine/search/journal-events.ts';
import type { RunOptions } from '../../engine/search/run-options.ts';

describe('evaluation progress through a pipe', () => {
  it('prints a line of the programs that moved at most every 30 s, saying how many worlds have started', () => {
    let t = 0;
    const out: string[] = [];
    const print = progressPrinter({ tty: false, write: (s) => out.push(s), now: () => t });
    print('bm25', { kind: 'world-start', world: 'w1', episodes: 3, tasks: 40 });
    print('dense', { kind: 'world-start', world: 'w1', episodes: 3, tasks: 40 });
    for (let done = 1; done <= 10; done++) {
      t += 2_000;
      print('bm25', { kind: 'task', world: 'w1', taskId: `q${done}`, reward: 1, done, total: 40 });
    }
    expect(out).toEqual([]);
    t = 31_000;
    print('dense', { kind: 'task', world: 'w1', taskId: 'q1', reward: 0, done: 1, total: 40 });
    expect(out).toEqual([
      '  … bm25: 10 tasks done (1 world started, 0m31s)\n  … dense: 1 tasks done (1 world started, 0m31s)\n',
    ]);
    // bm25 ends; only dense moves: the next line names dense alone.
    print('bm25', { kind: 'world-end', world: 'w1', score: 0.5 });
    t = 62_000;
    print('dense', { kind: 'task', world: 'w1', taskId: 'q2', reward: 0, done: 2, total: 40 });
    expect(out.at(-1)).toBe('  … dense: 2 tasks done (1 world started, 1m02s)\n');
  });

  it('names a program that finished since the last line no more: its score has a line of its own', () => {
    // The demo's line: "root: 93 tasks done …, n6: 1 tasks done" — root had finished, n6 had just started.
    let t = 0;
    const out: string[] = [];
    const print = progressPrinter({ tty: false, write: (s) => out.push(s), now: () => t });
    print('root', { kind: 'world-start', world: 'w1', episodes: 3, tasks: 93 });
    for (let done = 1; done <= 93; done++) {
      t += 200;
      print('root', { kind: 'task', world: 'w1', taskId: `q${done}`, reward: 0, done, total: 93 });
    }
    t = 24_000;
    print('n6', { kind: 'world-start', world: 'w1', episodes: 3, tasks: 93 });
    t = 31_000;
    print('n6', { kind: 'task', world: 'w1', taskId: 'q1', reward: 0, done: 1, total: 93 });
    expect(out).toEqual(['  … n6: 1 tasks done (1 world started, 0m07s)\n']);
  });

  it('redraws one line on a terminal', () => {
    const out: string[] = [];
    const print = progressPrinter({ tty: true, write: (s) => out.push(s) });
    print('bm25', { kind: 'world-start', world: 'w1', episodes: 3, tasks: 4 });
    print('bm25', { kind: 'task', world: 'w1', taskId: 'q1', reward: 1, done: 1, total: 4 });
    expect(out.at(-1)).toBe('\rbm25: 1/4 tasks');
  });
});

describe("a search's step lines", () => {
  const options = { budget: 10, ucb: DEFAULT_UCB } as unknown as RunOptions;
  const node = (id: string, parent: string | null, scores: number[]) =>
    ({
      id,
      parent,
      kind: parent ? 'child' : 'root',
      dir: id,
      hash: id,
      step: 0,
      parentSnapshot: null,
      scores,
      samples: scores.map((_, i) => i),
      description: 'tune k',
    }) as const;
  const state = (): SearchProgress => {
    const st = emptyState(new CostLedger());
    st.tree.add({ ...node('root', null, [0.2]), scores: [0.2] });
    st.tree.add({ ...node('n1', 'root', [0.5]), kind: 'child', step: 1 });
    return { state: st, tree: st.tree, ledger: st.ledger, startedAt: 0 };
  };
  const at = (t: number, e: Record<string, unknown>) => ({ t, ...e }) as unknown as JournalEvent;

  it("estimates the steps left from the budget's steps alone, not step 0", () => {
    // The demo's first estimate: a 65 s step 0 and an 8 s first step, 9 steps to go.
    expect(stepsLeftMs(8_000, 1, 9)).toBe(72_000);
    let t = 65_000;
    const out: string[] = [];
    const print = stepProgress(
      options,
      (s) => out.push(s),
      () => t,
    );
    const s = state();
    print(at(t, { type: 'action', step: 1, kind: 'generate', node: 'root' }), s);
    t += 8_000;
    print(at(t, { type: 'evaluation', step: 1, node: 'n1', split: 'train', index: 0, score: 0.5, tasks: 93 }), s);
    expect(out.at(-1)).toContain('step 1/10 generate from root → n1 [tune k]: 0.500');
    expect(out.at(-1)).toContain('1m13s elapsed, ~1m12s of steps left');
  });

  it("says once that a step's children changed nothing, however many it tried", () => {
    const out: string[] = [];
    const print = stepProgress(
      options,
      (s) => out.push(s),
      () => 0,
    );
    const s = state();
    print(at(0, { type: 'action', step: 2, kind: 'generate', node: 'n1' }), s);
    for (let i = 0; i < 3; i++)
      print(at(0, { type: 'no-op', step: 2, parent: 'n1', reason: 'the same program as n1' }), s);
    print(at(0, { type: 'step-done', step: 2 }), s);
    expect(out).toEqual([
      '  step 2/10 generate from n1: 3 children that changed nothing, not evaluated (the same program as n1)\n',
    ]);
    // A step whose second child was evaluated says so in its one line.
    print(at(0, { type: 'action', step: 3, kind: 'generate', node: 'n1' }), s);
    print(at(0, { type: 'no-op', step: 3, parent: 'n1', reason: 'the same program as n1' }), s);
    s.tree.add({ ...node('n3', 'n1', [0.6]), kind: 'child', step: 3 });
    print(at(0, { type: 'evaluation', step: 3, node: 'n3', split: 'train', index: 0, score: 0.6, tasks: 93 }), s);
    print(at(0, { type: 'step-done', step: 3 }), s);
    expect(out).toHaveLength(2);
    expect(out[1]).toMatch(
      /^ {2}step 3\/10 generate from n1 \(after a child that changed nothing\) → n3 \[tune k\]: 0\.600/,
    );
  });

  it("shows the best LCB by the engine's own rule, and re-derives no formula or step number of the engine's", () => {
    const out: string[] = [];
    const print = stepProgress(
      options,
      (s) => out.push(s),
      () => 0,
    );
    const s = state();
    s.tree.add({ ...node('n2', 'root', [0.9]), kind: 'child', step: 2 });
    (s.tree.get('root').scores as number[]).push(0.3, 0.25);
    print(at(0, { type: 'action', step: 2, kind: 'generate', node: 'root' }), s);
    print(at(0, { type: 'evaluation', step: 2, node: 'n2', split: 'train', index: 0, score: 0.9, tasks: 93 }), s);
    const best = bestLcb(s.tree, DEFAULT_UCB);
    expect(out.at(-1)).toContain(`best LCB ${best?.lcb.toFixed(3)} ${best?.node.id} |`);
    // The CLI takes them from the engine (through api/): the LCB's formula and the final phase's step number.
    for (const name of readdirSync(join(repoRoot, 'cli'), { recursive: true }) as string[]) {
      if (!name.endsWith('.ts')) continue;
      const text = readFileSync(join(repoRoot, 'cli', name), 'utf8');
      expect(text, name).not.toMatch(/Math\.sqrt\(Math\.log|\bcEval\b/);
      expect(text, name).not.toMatch(/step === -1|step: -1/);
    }
  });
});

describe("a step's line", () => {
  it('says which mode chose the child, from the typed mode the node records (not its prose)', () => {
    const tree = new SearchTree();
    const base = { dir: 'programs/x', hash: 'h', parentSnapshot: 0.5, scores: [0.5], samples: [0] };
    tree.add({ ...base, id: 'root', parent: null, kind: 'root', step: 0, parentSnapshot: null });
    tree.add({
      ...base,
      id: 'n1',
      parent: 'root',
      kind: 'child',
      step: 1,
      description: 'stage-tune: bm25Stage k 40 → 60 (sweep of bm25Stage.k)',
      mode: 'sweep',
    });
    expect(childWords(tree.get('n1'), tree)).toMatch(/^\[sweep: stage-tune: bm25Stage k 40 → 60/);
    tree.add({
      ...base,
      id: 'n2',
      parent: 'root',
      kind: 'child',
      step: 2,
      description: 'sweep: a description that names a mode is not read',
    });
    expect(childWords(tree.get('n2'), tree)).not.toMatch(/^\[sweep: sweep/);
  });
});
