import { describe, expect, it } from 'vitest';
import { MAX_SEED, runSeeds } from '../../engine/run-seeds.ts';
import { RunOptionsSchema, seedsOf } from '../../engine/search/run-options.ts';

describe('the seeds of a run', () => {
  it('derive from the run seed: the split is the run seed unless held, the sandbox the next one', () => {
    expect(runSeeds()).toEqual({ run: 0, split: 0, sandbox: 1 });
    expect(runSeeds(3)).toEqual({ run: 3, split: 3, sandbox: 4 });
    expect(runSeeds(3, 0)).toEqual({ run: 3, split: 0, sandbox: 4 });
    expect(runSeeds(MAX_SEED).sandbox).toBe(0);
    expect(() => runSeeds(MAX_SEED + 1)).toThrow('seed must be a whole number from 0 to 2147483647');
  });

  it('are read back as the run recorded them, and a run that does not record them is refused', () => {
    const recorded = {
      env: 'toy',
      budget: 1,
      seeds: [],
      meta: 'offline',
      seed: 5,
      splitSeed: 2,
      sandboxSeed: 6,
      policy: 'ucb',
      selectionShare: 0.3,
      protocol: 'update',
      selection: 'lcb',
      evalFraction: 0.5,
      minEvalTasks: 30,
      ucb: { cEval: 1, cGen: 1, lambda: 1, kappa: 1, minWidth: 1, seedsExpandable: true },
      repairAttempts: 3,
      quickExamTasks: 5,
      testWinner: true,
    };
    expect(seedsOf(RunOptionsSchema.parse(recorded))).toEqual({ run: 5, split: 2, sandbox: 6 });
    const { splitSeed: _split, sandboxSeed: _sandbox, ...unrecorded } = recorded;
    expect(RunOptionsSchema.safeParse(unrecorded).success).toBe(false);
  });
});
