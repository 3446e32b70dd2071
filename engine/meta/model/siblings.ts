// Children of one parent written by steps in flight at the same time. The tree tells a step only the children
// already added to it; a sibling still being written (or examined, or evaluated) would otherwise get the very same
// prompt and write the very same child. Each step says here which direction it took as soon as it has one. A later
// step of the same parent is told the directions already taken, and how many siblings have not chosen yet, so it
// can rank its way past them — without waiting for them, which would serialise the steps in flight.

/** A sibling's direction: the proposal it carries out. */
export interface SiblingDirection {
  step: number;
  direction: string;
}

/** What steps in flight are writing from the same parent, as a later step sees it. */
export interface InFlight {
  decided: SiblingDirection[];
  /** Earlier siblings still choosing their direction. */
  undecided: number;
}

interface Entry {
  step: number;
  direction?: string;
  done: boolean;
}

const PER_PARENT = 16;
const PARENTS = 1000;

export class Siblings {
  private readonly byParent = new Map<string, Entry[]>();

  /**
   * Registers step `step` as writing a child of `parent`. `now()` tells what the steps registered before it (other
   * steps only: a step's own earlier try is in the tree as a no-op) have chosen so far; `settle` records this
   * step's direction (the first call counts; undefined when it produced none) and must be called when it ends.
   */
  join(parent: string, step: number): { now: () => InFlight; settle: (direction: string | undefined) => void } {
    const before = (this.byParent.get(parent) ?? []).filter((e) => e.step !== step);
    const mine: Entry = { step, done: false };
    const list = [...(this.byParent.get(parent) ?? []), mine].slice(-PER_PARENT);
    this.byParent.delete(parent);
    this.byParent.set(parent, list);
    for (const key of this.byParent.keys()) {
      if (this.byParent.size <= PARENTS) break;
      this.byParent.delete(key);
    }
    return {
      now: () => ({
        decided: before.flatMap((e) => (e.direction !== undefined ? [{ step: e.step, direction: e.direction }] : [])),
        undecided: before.filter((e) => !e.done).length,
      }),
      settle: (direction) => {
        if (mine.done) return;
        mine.done = true;
        if (direction !== undefined) mine.direction = direction;
      },
    };
  }
}
