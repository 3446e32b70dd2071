// Calls into code that is not ours (an environment's load, its agent, its checker) may never answer. Each goes
// through `withinTime`: it ends at its limit with an error naming what was called and the limit, and — since a
// promise nothing can resolve would otherwise let Node leave with exit code 13 and no word — a call still pending
// when the process has nothing else left to do ends at once, saying it never finished. The limit's timer does not
// keep the process alive by itself (so a call waiting on nothing is named at once, not after its limit); after such
// a dead end the process is kept for one more turn, so what the failure starts (a retry, the next task, the
// message that names it) runs, and a retry that waits on nothing again is named again, instead of Node leaving
// with exit code 13 while the caller still awaits.

/** A call into someone else's code that did not finish in time, or could never finish. */
export class TimeLimitError extends Error {
  override name = 'TimeLimitError';
}

interface Pending {
  fail(error: Error): void;
  what: string;
  limit: string;
}

const pending = new Set<Pending>();
let watching = false;

/** When the event loop is empty, no pending call can ever settle: each is ended with the reason. */
function watchForDeadEnds(): void {
  if (watching) return;
  watching = true;
  process.on('beforeExit', () => {
    if (!pending.size) return;
    for (const p of [...pending]) {
      p.fail(new TimeLimitError(`${p.what} never finished: it waits on something that can no longer happen (nothing else was left running; ${p.limit})`));
    }
    // One more turn of the event loop: Node emits beforeExit again only when the loop ran, and a retry started by
    // these failures holds no ref'd handle of its own.
    setImmediate(() => undefined);
  });
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export interface LimitOptions {
  /** The setting that moves the limit, for the message (e.g. "limits.agentMs"). */
  setting?: string;
}

/**
 * `call()`, ended with a TimeLimitError saying "`what` did not finish within N s" after `ms` (no limit when it is
 * Infinity; a call that can never finish still ends). `what` names the part and its subject, e.g.
 * `environment "vaults": agent v/1 on task "t3"`.
 */
export function withinTime<T>(what: string, ms: number, call: () => T | PromiseLike<T>, options: LimitOptions = {}): Promise<T> {
  watchForDeadEnds();
  const setting = options.setting ? ` (${options.setting})` : '';
  const limit = Number.isFinite(ms) ? `its time limit${setting} is ${seconds(ms)}` : 'it has no time limit';
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const entry: Pending = { what, limit, fail: (error) => settle(() => reject(error)) };
    const settle = (finish: () => void) => {
      if (!pending.delete(entry)) return;
      clearTimeout(timer);
      finish();
    };
    pending.add(entry);
    if (Number.isFinite(ms)) {
      timer = setTimeout(() => entry.fail(new TimeLimitError(`${what} did not finish within ${seconds(ms)}${setting}`)), ms);
      timer.unref();
    }
    try {
      Promise.resolve(call()).then(
        (value) => settle(() => resolve(value)),
        (error: unknown) => settle(() => reject(error)),
      );
    } catch (error) {
      settle(() => reject(error));
    }
  });
}
