// One seed per run (`--seed`, default 0), for every command: the tasks' roles (the split), the sandbox's
// Math.random / ctx.random and the search's own draws (policy, validation samples) all derive from it. `--split-seed`
// holds the split fixed while the run seed varies: repeated searches of a study then share one held-out test split.
import { UsageError } from '../foundation/usage-error.ts';

/** The largest seed a job or a run accepts (the schemas' bound). */
export const MAX_SEED = 2 ** 31 - 1;

export interface RunSeeds {
  /** The run's seed, as given. */
  run: number;
  /** Opens the environment: which tasks update, validate and test. */
  split: number;
  /** Math.random and ctx.random inside the program's isolate. */
  sandbox: number;
}

/**
 * The seeds of a run. The sandbox's is the run's + 1, so the default run seed 0 keeps the sandbox seed every command
 * used before the seeds were unified (1).
 */
export function runSeeds(run = 0, split?: number): RunSeeds {
  for (const [name, value] of [['seed', run], ['splitSeed', split]] as const)
    if (value !== undefined && (!Number.isInteger(value) || value < 0 || value > MAX_SEED))
      throw new UsageError(`${name} must be a whole number from 0 to ${MAX_SEED}; got ${String(value)}`);
  return { run, split: split ?? run, sandbox: (run + 1) % (MAX_SEED + 1) };
}
