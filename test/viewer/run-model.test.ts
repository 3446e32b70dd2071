// The viewer's reading of a run folder, on hand-written journals: numbers from engine/search/ucb.ts, the step
// series, status, a torn last line, a step in flight, meta.json, and folders that are not runs.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_UCB, evalScore, lcb } from '../../engine/search/ucb.ts';
import { RUN_FORMAT, RunFolder } from '../../run-store/run-folder.ts';
import type { RunOptions } from '../../engine/search/run-options.ts';
import { readNodeDetail, readNoOpDetail } from '../../viewer/node-detail.ts';
import { NotARunError, readRun, readRunInfo } from '../../viewer/run-model.ts';
import { insideRoot } from '../../foundation/safe-path.ts';
import { textSummary } from '../../viewer/summary.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const options: RunOptions = {
  env: 'toy',
  budget: 4,
  seeds: ['bm25'],
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
  quickExamTasks: 3,
  testWinner: true,
};

let t = 1_000;
const line = (e: Record<string, unknown>) => `${JSON.stringify({ ...e, t: t++ })}\n`;
const node = (step: number, id: string, parent: string | null, kind: string, snapshot: number | null) =>
  line({
    type: 'node',
    step,
    id,
    parent,
    kind,
    dir: `programs/${id}`,
    hash: `h-${id}`,
    parentSnapshot: snapshot,
    description: `about ${id}`,
  });
const evaluation = (step: number, nodeId: string, index: number, score: number, split = 'train') =>
  line({
    type: 'evaluation',
    step,
    node: nodeId,
    split,
    index,
    score,
    tasks: 4,
    evidence: `evidence/${nodeId}/${split}-${index}`,
    stats: {},
    ms: 5,
  });
const action = (step: number, kind: string, nodeId: string) =>
  line({
    type: 'action',
    step,
    kind,
    node: nodeId,
    score: 1,
    candidates: [
      { kind: 'evaluate', node: 'seed-bm25', score: 0.9 },
      { kind, node: nodeId, score: 1 },
    ],
  });

/** A run: root 0.1, seed 0.6 then 0.8, child n1 0.7, a failed generation at step 3. */
function makeRun(finished = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'view-model-'));
  dirs.push(dir);
  const folder = new RunFolder(dir);
  folder.create({
    format: RUN_FORMAT,
    createdAt: '2026-01-01T00:00:00Z',
    options,
    env: { name: 'toy', mode: 'offline', reward: 'code found' },
    envSource: { spec: 'toy', kind: 'builtin', name: 'toy' },
    models: {},
    versions: {},
  })();
  for (const id of ['root', 'seed-bm25', 'n1'])
    folder.writeProgram(id, { 'index.ts': `// ${id}\nexport default 1;\n` });
  folder.writeMeta('n1', {
    node: 'n1',
    parent: 'seed-bm25',
    step: 1,
    agent: 'offline',
    description: 'about n1',
    attempts: 1,
    feedback: {
      agent: 'offline',
      clusters: [{ scenario: 'w1', tasks: 2, meanReward: 0.5, summary: 'half' }],
      proposal: 'more',
    },
  });
  const lines = [
    line({ type: 'start', resumed: false, pid: 1 }),
    node(0, 'root', null, 'root', null),
    evaluation(0, 'root', 0, 0.1),
    node(0, 'seed-bm25', 'root', 'seed', 0.1),
    evaluation(0, 'seed-bm25', 0, 0.6),
    line({ type: 'step-done', step: 0 }),
    action(1, 'generate', 'seed-bm25'),
    line({ type: 'quick-exam', step: 1, dir: 'programs/n1', attempt: 0, passed: true }),
    node(1, 'n1', 'seed-bm25', 'child', 0.6),
    evaluation(1, 'n1', 0, 0.7),
    line({ type: 'step-done', step: 1 }),
    action(2, 'evaluate', 'seed-bm25'),
    evaluation(2, 'seed-bm25', 1, 0.8),
    line({ type: 'step-done', step: 2 }),
    action(3, 'generate', 'n1'),
    line({
      type: 'generation-failed',
      step: 3,
      parent: 'n1',
      failure: { check: 'interface', detail: 'no default export' },
      attempts: 4,
      dir: 'programs/n3-try3',
    }),
    line({ type: 'step-done', step: 3 }),
  ];
  if (finished) {
    lines.push(
      line({ type: 'final', selection: 'lcb', winner: 'seed-bm25', lcb: 0.5, validation: 0.7 }),
      evaluation(-1, 'seed-bm25', 0, 0.65, 'test'),
      line({ type: 'step-done', step: -1 }),
    );
  }
  writeFileSync(folder.journalPath, lines.join(''));
  return dir;
}

describe('run model', () => {
  it('gives each node its mean, n, interval and LCB from ucb.ts, the winner, actions and failures', () => {
    const run = readRun(makeRun());
    expect(run.status).toBe('finished');
    expect(run.N).toBe(4);
    const seed = run.nodes.find((n) => n.id === 'seed-bm25');
    expect(seed?.q).toBeCloseTo(0.7);
    expect(seed?.n).toBe(2);
    expect(seed?.ci).toBeCloseTo(evalScore(0.7, 2, 4, DEFAULT_UCB) - 0.7);
    expect(seed?.lcb).toBeCloseTo(lcb(0.7, 2, 4, DEFAULT_UCB));
    expect(seed?.testScore).toBe(0.65);
    expect(seed?.evaluations.map((e) => e.evidence)).toEqual([
      'evidence/seed-bm25/train-0',
      'evidence/seed-bm25/train-1',
      'evidence/seed-bm25/test-0',
    ]);
    expect(run.winner).toBe('seed-bm25');
    expect(run.nodes.find((n) => n.id === 'n1')?.hasMeta).toBe(true);
    expect(run.actions.map((a) => [a.step, a.kind, a.child ?? a.failed ?? a.result])).toEqual([
      [1, 'generate', 'n1'],
      [2, 'evaluate', 0.8],
      [3, 'generate', 'quick examination (interface): no default export'],
    ]);
    expect(run.failures).toEqual([
      {
        parent: 'n1',
        step: 3,
        failure: { check: 'interface', detail: 'no default export' },
        reason: 'quick examination (interface): no default export',
        attempts: 4,
        dir: 'programs/n3-try3',
      },
    ]);
  });

  it('gives the children that changed nothing, each with its own files unless a node took its folder', () => {
    const dir = makeRun(false);
    const folder = new RunFolder(dir);
    // Step 4 tries three times: two no-ops (the first in n4's folder, the second beside it), then the node n4.
    folder.writeProgram('n4', { 'index.ts': '// n4\nexport default 1;\n' });
    folder.writeProgram('n4-again1', { 'index.ts': '// n1\nexport default 1; // again\n' });
    appendFileSync(
      join(dir, 'journal.jsonl'),
      action(4, 'generate', 'n1') +
        line({ type: 'quick-exam', step: 4, dir: 'programs/n4', attempt: 0, passed: true }) +
        line({
          type: 'no-op',
          step: 4,
          parent: 'n1',
          rule: 'same-program',
          same: 'n1',
          reason: 'the same program as n1',
          dir: 'programs/n4',
          description: 'reorder <b>nothing</b>',
        }) +
        line({
          type: 'no-op',
          step: 4,
          parent: 'n1',
          rule: 'quick-exam',
          reason: "its payloads on the 3 quick-examination tasks are exactly its parent's",
          dir: 'programs/n4-again1',
          edits: [{ kind: 'config', key: 'k', from: 3, to: 4 }],
        }) +
        node(4, 'n4', 'n1', 'child', 0.7) +
        evaluation(4, 'n4', 0, 0.2) +
        line({ type: 'step-done', step: 4 }) +
        // A no-op of a step that never finished is not counted.
        action(5, 'generate', 'n4') +
        line({
          type: 'no-op',
          step: 5,
          parent: 'n4',
          rule: 'same-program',
          reason: 'the same program as n4',
          dir: 'programs/n5',
        }),
    );
    const run = readRun(dir);
    expect(run.noops).toEqual([
      {
        index: 0,
        parent: 'n1',
        step: 4,
        same: 'n1',
        reason: 'the same program as n1',
        description: 'reorder <b>nothing</b>',
        dir: 'programs/n4',
        filesKept: false,
      },
      {
        index: 1,
        parent: 'n1',
        step: 4,
        reason: "its payloads on the 3 quick-examination tasks are exactly its parent's",
        edits: [{ kind: 'config', key: 'k', from: 3, to: 4 }],
        dir: 'programs/n4-again1',
        filesKept: true,
      },
    ]);
    expect(run.actions.find((a) => a.step === 4)).toMatchObject({
      child: 'n4',
      noops: 2,
      noop: "its payloads on the 3 quick-examination tasks are exactly its parent's",
    });
    expect(readNoOpDetail(run, 1)?.files?.['index.ts']).toContain('// again');
    expect(readNoOpDetail(run, 1)?.quickExams).toEqual([{ dir: 'programs/n4', attempt: 0, passed: true }]);
    // Its folder holds n4 now: no files are claimed for it.
    expect(readNoOpDetail(run, 0)?.files).toBeUndefined();
    expect(readNoOpDetail(run, 2)).toBeNull();
  });

  it('tracks the best mean and best LCB after every step', () => {
    const run = readRun(makeRun());
    expect(run.steps.map((s) => [s.step, s.N, s.bestMeanNode, s.bestLcbNode])).toEqual([
      [0, 2, 'seed-bm25', 'seed-bm25'],
      [1, 3, 'n1', 'n1'],
      [2, 4, 'seed-bm25', 'seed-bm25'],
      [3, 4, 'seed-bm25', 'seed-bm25'],
    ]);
    expect(run.steps[1]?.bestLcb).toBeCloseTo(lcb(0.7, 1, 3, DEFAULT_UCB));
    expect(run.steps[2]?.bestLcb).toBeCloseTo(lcb(0.7, 2, 4, DEFAULT_UCB));
  });

  it('reads a running run with a torn last line and a step in flight', () => {
    const dir = makeRun(false);
    appendFileSync(join(dir, 'journal.jsonl'), action(4, 'generate', 'n1') + '{"type":"quick-exam","st');
    writeFileSync(join(dir, 'lock'), String(process.pid));
    const run = readRun(dir);
    expect(run.status).toBe('running');
    expect(run.pid).toBe(process.pid);
    expect(run.torn?.line).toBe(19);
    expect(run.inFlight).toMatchObject({ step: 4, kind: 'generate', node: 'n1' });
    expect(run.nodes).toHaveLength(3);
    expect(run.completedSteps).toBe(3);
    rmSync(join(dir, 'lock'));
    expect(readRun(dir).status).toBe('interrupted');
  });

  it('reads node details: source files, meta.json, the step’s examinations; a bad meta.json is named', () => {
    const dir = makeRun();
    const detail = readNodeDetail(readRun(dir), 'n1');
    expect(detail?.files['index.ts']).toContain('// n1');
    expect(detail?.meta?.feedback?.clusters[0]?.summary).toBe('half');
    expect(detail?.quickExams).toEqual([{ dir: 'programs/n1', attempt: 0, passed: true }]);
    writeFileSync(join(dir, 'programs', 'n1', 'meta.json'), '{"node": 1}');
    expect(readNodeDetail(readRun(dir), 'n1')?.metaError).toMatch(/is not a meta file/);
    expect(readNodeDetail(readRun(dir), 'nope')).toBeNull();
  });

  it('summarises a run as text', () => {
    const text = textSummary(readRun(makeRun()));
    expect(text).toMatch(/env\s+toy — offline: code found/);
    expect(text).toMatch(/seed-bm25\s+seed\s+root\s+0\s+0\.700\s+2\s+\S+\s+0\.650\s+bm25\s+← winner/);
    // A program the final phase did not test says so, and each row says what the program is.
    expect(text).toMatch(/root\s+root\s+0\s+0\.100\s+1\s+\S+\s+not run\s+no memory/);
    expect(text).toContain(
      'Winner seed-bm25: validation 0.700, test 0.650 — a starting program: no child was picked over it.',
    );
    expect(text).toContain('selected (lcb): seed-bm25');
    expect(text).toContain('1 failed generations');
  });

  it('names what is wrong with a folder that is not a run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'view-notrun-'));
    dirs.push(dir);
    expect(() => readRunInfo(join(dir, 'missing'))).toThrow(/does not exist/);
    writeFileSync(join(dir, 'file'), 'x');
    expect(() => readRunInfo(join(dir, 'file'))).toThrow(/is not a folder/);
    expect(() => readRunInfo(dir)).toThrow(NotARunError);
    expect(() => readRunInfo(dir)).toThrow(/is not a run folder: it has no run.json/);
    writeFileSync(join(dir, 'run.json'), '{"format": "something else"}');
    expect(() => readRunInfo(dir)).toThrow(/is a run of format "something else"/);
    writeFileSync(join(dir, 'run.json'), JSON.stringify({ format: RUN_FORMAT }));
    expect(() => readRunInfo(dir)).toThrow(/is not a run description/);
    const damaged = makeRun();
    writeFileSync(join(damaged, 'journal.jsonl'), 'not json\n{"type":"start","resumed":false,"pid":1,"t":1}\n');
    expect(() => readRun(damaged)).toThrow(/line 1 is not JSON; the journal is damaged/);
  });
});

describe('paths inside the run folder', () => {
  it('refuses .., absolute paths and links that leave the folder', () => {
    const dir = makeRun();
    const outside = mkdtempSync(join(tmpdir(), 'view-outside-'));
    dirs.push(outside);
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    mkdirSync(join(dir, 'evidence'), { recursive: true });
    symlinkSync(outside, join(dir, 'evidence', 'link'));
    expect(insideRoot(dir, 'programs/n1/index.ts')).toMatch(/programs\/n1\/index\.ts$/);
    expect(insideRoot(dir, '../secret.txt')).toBeNull();
    expect(insideRoot(dir, 'programs/../../x')).toBeNull();
    expect(insideRoot(dir, join(outside, 'secret.txt'))).toBeNull();
    expect(insideRoot(dir, 'evidence/link/secret.txt')).toBeNull();
    expect(insideRoot(dir, 'programs/n1/index.ts\0.png')).toBeNull();
    expect(insideRoot(dir, 'no/such/file')).toBeNull();
  });
});
