// How an option is declared (catalog.ts holds them all): once, with what the library accepts, its default, the
// commands that take it and, for the command line, its flag and its help. derive.ts builds everything else from it.
import { z } from 'zod';
import { didYouMean } from '../../foundation/closest.ts';

/** automemo's commands; each library call takes the options of the command of its name (eval: evaluate()). */
export const COMMANDS = [
  'search',
  'eval',
  'baselines',
  'check',
  'worker',
  'demo',
  'view',
  'report',
  'export',
  'study',
] as const;
export type CommandName = (typeof COMMANDS)[number];

/** The command line's side of an option. */
export interface CliSide {
  /** The flag without its dashes: `eval-fraction` is --eval-fraction. */
  flag: string;
  /** The argument's name in the help (N, DIR); absent for a switch, which takes none. */
  arg?: string;
  /** Lines under the help, laid out by their owner (the registered environments), starting at `indent`. */
  list?: (indent: string) => string;
  /** How the argument's text becomes the value (default: a number when the value is one, else the text itself). */
  parse?: (text: string) => unknown;
  /** A switch's value when given (default true): --no-test sets `test` to false. */
  sets?: unknown;
  /** Given more than once, each one kept in order (the value is their list). */
  multiple?: boolean;
  /** Left out of the help: for automemo's own use (worker --ipc). */
  hidden?: boolean;
  /** The command line's default where it differs from the library's (workers: cores − 1, not this process). */
  default?: () => unknown;
}

export interface OptionDeclaration {
  /** The library's name for it (search({ evalFraction })), and the key of the parsed command line. */
  key: string;
  /** What the library accepts, checked at its edge; on the command line, after `parse` made it from the text. */
  value: z.ZodType;
  /** The commands (and the library calls of their names) that take it. */
  commands: readonly CommandName[];
  /**
   * What it does, for the command's help and the library's documentation: `{default}` is replaced by its default.
   * A function when it reads differently per command.
   */
  help: string | ((command: CommandName) => string);
  /** The commands that cannot do without it. */
  required?: readonly CommandName[];
  /**
   * The value when none is given, applied by the library (withDefaults). Where it tunes a formula it is declared
   * beside that formula and named here.
   */
  default?: unknown;
  /** How it is given on the command line; absent for an option only the library takes (metaMaxTokens). */
  cli?: CliSide;
  /** Only the command line has it (--json): no library call takes it. */
  cliOnly?: true;
  /** search: kept in run.json's options under this key (true: its own), so a resume runs with it. */
  recorded?: true | string;
  /** search: a resume may change it (the budget may be raised); the others keep the run's. */
  resumable?: true;
}

/** Declares an option; `const` keeps its key and commands as literals, from which the library's types derive. */
export function option<const D extends OptionDeclaration>(declaration: D & { default?: z.output<D['value']> }): D {
  return declaration;
}

/** A whole number in [min, max], with the message every command gives for one. */
export function wholeNumber(min: number, max: number) {
  const error = `expected a whole number from ${min} to ${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

/** A share in (0, 1]. */
export function share() {
  const error = 'expected a share: a number above 0 and at most 1';
  return z.number({ error }).gt(0, { error }).max(1, { error });
}

/** One of `names`, or a message naming the near miss and the choices. */
export function oneOf<const T extends readonly [string, ...string[]]>(names: T, what: string) {
  return z.enum(names, {
    error: (issue) => {
      const given = String(issue.input).slice(0, 50);
      return `unknown ${what} ${JSON.stringify(given)}${didYouMean(given, names)}; known: ${names.join(', ')}`;
    },
  });
}

/** Names separated by commas, as the command line gives a list. */
export const commaList = (text: string) => text.split(',').map((s) => s.trim());
