// Who asked for embedding work: one owner per program instance. Shared machinery (the offline worker pool, an
// embedding endpoint) files work under its owner, so the work of an instance that ended can be cancelled, and the
// time an owner waited behind others' work can be told apart from time spent on its own.
import { setMaxListeners } from 'node:events';

/** The owner ended (its program instance was disposed) before this work ran. */
export class EmbedCancelledError extends Error {
  override readonly name = 'EmbedCancelledError';
}

/** Shared embedding machinery failed (a worker crashed, the model would not load): never the program's fault. */
export class EmbedInfraError extends Error {
  override readonly name = 'EmbedInfraError';
}

/** Counts of the jobs an owner handed to shared machinery, by what became of them. */
export interface EmbedJobCounts {
  /** Handed to a worker. */
  sent: number;
  /** Answered and delivered. */
  done: number;
  /** Still queued when the owner ended: rejected, never sent. */
  cancelled: number;
  /** Inside a worker when the owner ended: left to finish (or the worker stopped), the result thrown away. */
  dropped: number;
}

/** Checkpoints kept of the foreign-wait curve; older ones are thinned, never the totals. */
const MAX_CHECKPOINTS = 2048;

export class EmbedOwner {
  readonly jobs: EmbedJobCounts = { sent: 0, done: 0, cancelled: 0, dropped: 0 };
  private ended = false;
  private readonly onEnd: (() => void)[] = [];
  private readonly abort = new AbortController();
  // Foreign wait as a piecewise-linear curve: at times[i] the owner had waited cumulative[i] ms on others, and
  // from then on it waits at `rate` (the share of the pool busy with others or not ready, while it has work queued).
  private readonly times: number[] = [];
  private readonly cumulative: number[] = [];
  private rate = 0;

  constructor() {
    // One listener per embedding request in flight, removed when it ends (OpenAIEmbedder): a program may send many at once.
    setMaxListeners(0, this.abort.signal);
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Aborted when the owner ends: requests to an endpoint stop with it. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Runs `fn` when the owner ends (at once if it has). */
  whenClosed(fn: () => void): void {
    if (this.ended) fn();
    else this.onEnd.push(fn);
  }

  /** Ends the owner: queued work is cancelled, work in flight is dropped. Idempotent. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.abort.abort(new EmbedCancelledError('the program instance ended'));
    for (const fn of this.onEnd.splice(0)) fn();
  }

  /** From `now` on, the owner waits on others at `rate` (0 = not waiting on anyone; 1 = the whole pool is theirs). */
  setForeignRate(now: number, rate: number): void {
    if (rate === this.rate) return;
    const waited = this.waitedBy(now);
    this.times.push(now);
    this.cumulative.push(waited);
    this.rate = rate;
    if (this.times.length > MAX_CHECKPOINTS) this.thin();
  }

  /** Milliseconds between `from` and `to` this owner spent waiting on shared machinery for reasons not its own. */
  foreignWaitMs(from: number, to: number): number {
    return to <= from ? 0 : Math.max(0, this.waitedBy(to) - this.waitedBy(from));
  }

  /** Cumulative foreign wait at time t (linear between checkpoints, `rate` after the last). */
  private waitedBy(t: number): number {
    const n = this.times.length;
    if (n === 0 || t <= (this.times[0] as number)) return 0;
    const lastT = this.times[n - 1] as number;
    if (t >= lastT) return (this.cumulative[n - 1] as number) + this.rate * (t - lastT);
    let lo = 0;
    let hi = n - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if ((this.times[mid] as number) <= t) lo = mid;
      else hi = mid;
    }
    const t0 = this.times[lo] as number;
    const t1 = this.times[hi] as number;
    const c0 = this.cumulative[lo] as number;
    const c1 = this.cumulative[hi] as number;
    return t1 === t0 ? c1 : c0 + ((c1 - c0) * (t - t0)) / (t1 - t0);
  }

  /** Drops every other checkpoint of the older half: the curve stays monotone and exact at every kept point. */
  private thin(): void {
    const half = this.times.length >> 1;
    const keep = (_: number, i: number) => i >= half || i % 2 === 0;
    const times = this.times.filter(keep);
    const cumulative = this.cumulative.filter(keep);
    this.times.splice(0, this.times.length, ...times);
    this.cumulative.splice(0, this.cumulative.length, ...cumulative);
  }
}

/** The owner of work asked for outside any program instance (a benchmark, building an exported memory). */
export const HOST_OWNER = new EmbedOwner();
