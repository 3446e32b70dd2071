// A run folder for in-process searches on the toy environment: the options every search test starts from, with
// its own changes on top.
import { DEFAULT_UCB } from '../../engine/search/ucb.ts';
import { RUN_FORMAT, RunFolder } from '../../run-store/run-folder.ts';
import type { RunOptions } from '../../engine/search/run-options.ts';

export function toyRunOptions(options: Partial<RunOptions> = {}): RunOptions {
  const seed = options.seed ?? 3;
  return {
    env: 'toy',
    budget: 3,
    seeds: ['trajectory-retrieval'],
    meta: 'offline',
    seed,
    splitSeed: 0,
    sandboxSeed: seed,
    policy: 'ucb',
    // What the toy searches were written against: nothing held out, the whole history learned from.
    selectionShare: 0,
    protocol: 'update+validation',
    selection: 'lcb',
    evalFraction: 1,
    minEvalTasks: 0,
    ucb: DEFAULT_UCB,
    repairAttempts: 1,
    quickExamTasks: 2,
    testWinner: false,
    ...options,
  };
}

/** Creates the run folder at `dir` with the toy options and `options` on top. */
export function createToyRun(dir: string, options: Partial<RunOptions> = {}): { folder: RunFolder; opts: RunOptions } {
  const folder = new RunFolder(dir);
  const opts = toyRunOptions(options);
  const release = folder.create({
    format: RUN_FORMAT,
    createdAt: new Date().toISOString(),
    options: opts,
    env: {},
    envSource: { spec: 'toy', kind: 'builtin', name: 'toy' },
    models: {},
    versions: {},
  });
  // A run made for a test is not held: the test's own search may take it up.
  release();
  return { folder, opts };
}
