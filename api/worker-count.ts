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
 * Node flags for worker processes that fill this machine's cores, when V8's helper threads have no spare core and
 * only take time from another worker (perf, two workers on LoCoMo; `npm run bench:eval`):
 * - each world runs in a fresh isolate, so V8 optimizes the program's hot functions again in every world, on
 *   background threads that took a quarter of the CPU, mostly for isolates that end within a second; tiering up
 *   after about 15× V8's default interrupt budget cuts that compile work to a third;
 * - garbage collection on the worker's own thread, without parallel helpers (2 workers: 3.40 s against 3.64 s a
 *   pass, median of 5, and less CPU in all).
 * Both cost one worker a few percent when a core is spare, so they apply only when there is none.
 */
export function workerNodeFlags(processes: number, cores = availableParallelism()): string[] {
  return processes >= cores ? ['--interrupt-budget=1000000', '--single-threaded-gc'] : [];
}
