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

/**
 * Node flags for worker processes that fill this machine's cores. Each world runs in a fresh isolate, so V8
 * optimizes the program's hot functions again in every world, on background threads: with one worker those threads
 * use a spare core, but with a worker per core they took a quarter of the CPU (perf, two workers on LoCoMo) from the
 * evaluations, mostly compiling code of isolates that end within a second. Tiering up after about 15× V8's default
 * interrupt budget cuts that compile work to a third for a few percent of interpreter time; it costs one worker
 * about 3% when a core is spare, so it applies only when there is none. Measured by `npm run bench:eval`.
 */
export function workerNodeFlags(processes: number, cores = availableParallelism()): string[] {
  return processes >= cores ? ['--interrupt-budget=1000000'] : [];
}
