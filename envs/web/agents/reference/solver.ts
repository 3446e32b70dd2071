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
