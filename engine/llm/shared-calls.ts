// Identical model requests of one run are asked once. A request whose exact twin is in flight waits for the twin's
// reply; one whose twin was already answered gets that reply at once. Either way the caller learns whose reply it
// got, so the journal can say the call was reused instead of made. A failed request is forgotten, so a later twin
// asks again; answered ones are kept up to a bound (oldest dropped first).
import { createHash } from 'node:crypto';

/** Who made a request first: the step, the node it wrote a child of, and what for. */
export interface CallOrigin {
  step: number;
  node: string;
  purpose: string;
}

export interface Shared<T> {
  value: T;
  /** Set when the value came from an earlier identical request (in flight or answered). */
  reusedFrom?: CallOrigin;
}

/** A stable key of a request: the model, the messages and every setting that changes the reply. */
export function requestKey(request: unknown): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('hex');
}

export class SharedCalls<T> {
  private readonly entries = new Map<string, { origin: CallOrigin; value: Promise<T> }>();

  constructor(private readonly maxEntries = 500) {}

  /** The value of `ask()` for this key, asked once per run however many callers want it. */
  async share(key: string, origin: CallOrigin, ask: () => Promise<T>): Promise<Shared<T>> {
    const known = this.entries.get(key);
    if (known) return { value: await known.value, reusedFrom: known.origin };
    const value = ask();
    this.entries.set(key, { origin, value });
    try {
      const v = await value;
      this.trim();
      return { value: v };
    } catch (err) {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
      throw err;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private trim(): void {
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) return;
      this.entries.delete(key);
    }
  }
}
