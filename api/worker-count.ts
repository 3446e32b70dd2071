// How many local worker processes a command starts by default: light on purpose, so the argument parsing of every
// command can ask without loading the job machinery.
import { availableParallelism } from 'node:os';
import { UsageError } from '../foundation/usage-error.ts';

export const MAX_WORKERS = 64;

/** The CLI's default: AUTOMEMO_WORKERS when set, else every core but the one the search itself uses, at least one. */
export function defaultWorkers(): number {
  const set = process.env.AUTOMEMO_WORKERS;
  if (set !== undefined && set !== '') {
    const n = Number(set);
    if (!Number.isInteger(n) || n < 0 || n > MAX_WORKERS) throw new UsageError(`AUTOMEMO_WORKERS must be a whole number from 0 to ${MAX_WORKERS}; got ${JSON.stringify(set.slice(0, 40))}`);
    return n;
  }
  return Math.max(1, availableParallelism() - 1);
}
