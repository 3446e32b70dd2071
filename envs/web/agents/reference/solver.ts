// A site solver: the reference agent's generic procedure for one site's kind of task, used when memory offers no
// successful sibling. It knows how such sites usually work (search, open, read a labelled field, fill a form) but
// not the template's quirk; where the quirk leaves several plausible ways, it guesses, seeded by the task id, and it
// steers away from what failed siblings did. It never imports the site's generator.
import type { Observation } from '../../browser/observation.ts';

export interface ActResult {
  ok: boolean;
  /** Why the action failed (element not found, covered, not a select, ...). */
  error?: string;
  /** The page after the action. */
  page: Observation;
}

export interface SolveContext {
  instruction: string;
  /** The site's name, e.g. "shop". */
  site: string;
  /** The current page. */
  page(): Observation;
  /**
   * One action in the agent grammar; elements by role and name (`Click link "Refine"`, `Type textbox "Search";
   * kettle`, `Select combobox "Sort"; Price: low to high`, `Scroll [WINDOW]; down`, `GoBack`) or by ref
   * (`Click [e12]`). Resolves to undefined when no step is left (the answer step is always kept).
   */
  act(line: string, thought?: string): Promise<ActResult | undefined>;
  stepsLeft(): number;
  /** Seeded by the task id: the same task makes the same guesses. */
  random: () => number;
  /** Actions of failed siblings, in role-and-name form with this task's arguments substituted. */
  avoid: string[][];
}

export interface WebSolver {
  site: string;
  /** No memory (or none that helps): the generic procedure. Returns the answer ("done" for tasks that change state). */
  generic(ctx: SolveContext): Promise<string | undefined>;
  /**
   * After a successful sibling's procedure was replayed: read the answer off the current page (answer tasks), or
   * "done" when the instruction asks to change something. May act (e.g. open the result) within the steps left.
   */
  finish(ctx: SolveContext): Promise<string | undefined>;
}

/** A kind of task an instruction pattern names, and how to do it (the pattern's groups are its arguments). */
export type PatternTask = [RegExp, (ctx: SolveContext, m: RegExpMatchArray) => Promise<string | undefined>];

/** The generic procedure of a site whose kinds of task differ by their instructions: the first matching one runs. */
export function byPattern(tasks: readonly PatternTask[]): WebSolver['generic'] {
  return async (ctx) => {
    for (const [re, run] of tasks) {
      const m = ctx.instruction.match(re);
      if (m) return run(ctx, m);
    }
    return undefined;
  };
}

/**
 * One way to do a task: how plausible it looks to an agent that does not know the site (default 1), and whether a
 * failed sibling's actions went that way.
 */
export interface Way<K extends string> {
  id: K;
  weight?: number;
  tookBy(actions: string[]): boolean;
}

/** A seeded pick, by weight, among the ways no failed sibling took (among all of them when every way failed before). */
export function chooseWay<K extends string>(ctx: SolveContext, ways: Way<K>[]): K {
  // A sibling that took no action went no way at all.
  const fresh = ways.filter((w) => !ctx.avoid.some((acts) => acts.length > 0 && w.tookBy(acts)));
  const pool = fresh.length ? fresh : ways;
  let r = ctx.random() * pool.reduce((sum, w) => sum + (w.weight ?? 1), 0);
  for (const w of pool) if ((r -= w.weight ?? 1) < 0) return w.id;
  return (pool[pool.length - 1] as Way<K>).id;
}
