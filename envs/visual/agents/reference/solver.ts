// What the reference agent knows about a family: which instructions are its own (keywords), a generic procedure
// to run when memory offers nothing, and how to read an answer off the observations of any procedure.
import type { ToolCall } from '../../tools/grammar.ts';
import type { ToolResult } from '../../tools/types.ts';

export interface Executed {
  line: string;
  call?: ToolCall;
  result?: ToolResult;
  error?: string;
}

export interface SolveContext {
  instruction: string;
  /** Runs one tool call as a turn; undefined when no turn is left for it (one is always kept for the answer). */
  exec(line: string, thought?: string): Promise<Executed | undefined>;
  turnsLeft(): number;
  /** Seeded by the task id: the same task makes the same choices. */
  random(): number;
  /** Tool calls of failed siblings (already rewritten with this task's arguments and parsed), one list per sibling. */
  avoid: ToolCall[][];
  /** Everything executed so far in this run. */
  executed: Executed[];
}

export interface Solver {
  family: string;
  /** How strongly the instruction's wording points to this family (0: not at all). */
  match(instruction: string): number;
  /** The generic procedure; returns the answer (or undefined). */
  generic(ctx: SolveContext): Promise<string | undefined>;
  /** The answer read off the observations of a replayed procedure, if they contain it. */
  derive(instruction: string, executed: Executed[]): string | undefined;
}

/** What a call of the named tool returned, in its structured form (undefined for other tools and for errors). */
export const dataOf = <T>(e: Executed, tool: string): T | undefined => (e.call?.name === tool ? (e.result?.data as T | undefined) : undefined);

/** Picks one item with the seeded generator. */
export function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length) % items.length] as T;
}

/** A seeded permutation. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}
