// Steps in flight: up to `parallel` at once, started in step order. Each step chooses its action when it starts,
// so what the others have in flight is already reserved in the tree (pending visits) and concurrent picks differ.
// With parallel = 1 this is the plain loop: one step, then the next.
// A step that throws (a bug, or a test's simulated kill) stops new steps; the ones in flight are awaited, then the
// first error is thrown — nothing a finished step wrote is lost to a half-awaited sibling.

export interface StepPoolOptions {
  /** Step numbers still to run, in order. */
  steps: number[];
  parallel: number;
  /** True once no further step may start (the budget is spent, a stop was journaled, the signal fired). */
  stopped: () => boolean;
  /** Called before a step starts; throwing stops the pool (tests use it to simulate a kill). */
  beforeStep?: (step: number) => void;
  run: (step: number) => Promise<void>;
}

export async function runStepPool(o: StepPoolOptions): Promise<void> {
  const inflight = new Set<Promise<void>>();
  let failed: { error: unknown } | undefined;
  for (const step of o.steps) {
    while (inflight.size >= Math.max(1, o.parallel)) await Promise.race(inflight);
    if (failed || o.stopped()) break;
    try {
      o.beforeStep?.(step);
    } catch (error) {
      failed = { error };
      break;
    }
    const running: Promise<void> = o
      .run(step)
      .catch((error: unknown) => {
        failed ??= { error };
      })
      .finally(() => inflight.delete(running));
    inflight.add(running);
  }
  await Promise.all(inflight);
  if (failed) throw failed.error;
}
