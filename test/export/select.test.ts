// Which node an export takes: the run's final winner, else the LCB argmax (engine/search's formula), or a named
// node; and the errors for folders that are no run and nodes that do not exist.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lcb } from '../../engine/search/ucb.ts';
import { DEFAULT_UCB } from '../../engine/search/ucb.ts';
import { UsageError } from '../../foundation/usage-error.ts';
import { selectNode } from '../../export/select.ts';
import { Journal } from '../../run-store/journal.ts';
import { RUN_FORMAT, RunFolder } from '../../run-store/run-folder.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const node = (id: string, parent: string | null) =>
  ({
    type: 'node',
    step: 0,
    id,
    parent,
    kind: parent ? 'seed' : 'root',
    dir: `programs/${id}`,
    hash: 'h',
    parentSnapshot: parent ? 0 : null,
  }) as const;
const evaluation = (n: string, index: number, score: number) =>
  ({
    type: 'evaluation',
    step: 0,
    node: n,
    split: 'train',
    index,
    score,
    tasks: 3,
    evidence: 'e',
    stats: {},
    ms: 1,
  }) as const;

/** A run whose max-mean node (a: one lucky 0.8) is not its LCB node (b: 0.7 three times). */
function makeRun(withFinal: string | null): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'export-select-')), 'run');
  dirs.push(join(dir, '..'));
  const folder = new RunFolder(dir);
  const release = folder.create({
    format: RUN_FORMAT,
    createdAt: '2026-01-01T00:00:00.000Z',
    options: {
      env: 'locomo',
      budget: 0,
      seeds: [],
      meta: 'offline',
      seed: 0,
      splitSeed: 0,
      sandboxSeed: 1,
      policy: 'ucb',
      selectionShare: 0,
      protocol: 'update+validation',
      selection: 'lcb',
      evalFraction: 1,
      minEvalTasks: 0,
      ucb: DEFAULT_UCB,
      repairAttempts: 3,
      quickExamTasks: 5,
      testWinner: false,
    },
    env: {},
    envSource: { spec: 'locomo', kind: 'builtin', name: 'locomo' },
    models: {},
    versions: {},
  });
  const j = new Journal(folder.journalPath);
  j.append({ type: 'start', resumed: false, pid: 1 });
  for (const e of [
    node('root', null),
    node('a', 'root'),
    node('b', 'root'),
    node('c', 'root'),
    evaluation('root', 0, 0),
    evaluation('a', 0, 0.8),
    evaluation('b', 0, 0.7),
    evaluation('b', 1, 0.7),
    evaluation('b', 2, 0.7),
  ])
    j.append(e);
  j.append({ type: 'step-done', step: 0 });
  if (withFinal) j.append({ type: 'final', selection: 'lcb', winner: withFinal, lcb: 0, validation: 0 });
  j.close();
  release();
  return dir;
}

describe('export selection', () => {
  it("takes the run's final winner", () => {
    const s = selectNode(makeRun('a'), undefined);
    expect(s.node.id).toBe('a');
    expect(s.chosenBy).toBe('final');
    expect(s.scores).toEqual({ validation: 0.8, n: 1, lcb: lcb(0.8, 1, 5, DEFAULT_UCB), test: null });
  });

  it('without a final event, takes the best lower confidence bound (not the best mean)', () => {
    const s = selectNode(makeRun(null), undefined);
    expect(s.chosenBy).toBe('lcb');
    expect(s.node.id).toBe('b');
    expect(s.scores.lcb).toBeCloseTo(0.7 - 0.2 * Math.sqrt(Math.log(5) / 3), 12);
    expect(s.scores.lcb as number).toBeGreaterThan(lcb(0.8, 1, 5, DEFAULT_UCB));
  });

  it('takes a named node, evaluated or not; names the known nodes for an unknown one', () => {
    const run = makeRun('a');
    expect(selectNode(run, 'c')).toMatchObject({
      chosenBy: 'node',
      scores: { validation: null, n: 0, lcb: null, test: null },
    });
    expect(() => selectNode(run, 'zz')).toThrow(UsageError);
    expect(() => selectNode(run, 'zz')).toThrow('has no node "zz"; its nodes: root, a, b, c');
  });

  it('refuses a folder that is no run', () => {
    const empty = mkdtempSync(join(tmpdir(), 'export-select-'));
    dirs.push(empty);
    expect(() => selectNode(empty)).toThrow(/has no run.json: not a run folder/);
    expect(() => selectNode(join(empty, 'missing'))).toThrow('does not exist');
  });
});
