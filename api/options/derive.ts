// Everything an option's declaration (catalog.ts) gives: a command's parseArgs configuration, the schema of its
// command line, its help, and the library's schema, types and defaults. Each takes the table as a parameter
// (OPTIONS by default), so a test can add an option and see it everywhere.
import { z } from 'zod';
import { UsageError } from '../../foundation/usage-error.ts';
import { OPTIONS, type Options } from './catalog.ts';
import type { CommandName, OptionDeclaration } from './declare.ts';

type Table = readonly OptionDeclaration[];
type Declared = Options[number];

/** The declarations a command takes, in the table's order. */
export function optionsOf(command: CommandName, table: Table = OPTIONS): OptionDeclaration[] {
  return table.filter((d) => d.commands.includes(command));
}

const onCommandLine = (command: CommandName, table: Table) =>
  optionsOf(command, table).filter(
    (d): d is OptionDeclaration & { cli: NonNullable<OptionDeclaration['cli']> } => d.cli !== undefined,
  );

/**
 * The options of node:util's parseArgs configuration, declared here: the published types (types/api/…) name nothing
 * of Node's, so a consumer compiles them without @types/node.
 */
export type FlagConfig = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

/** node:util's parseArgs configuration of a command: each flag, a string when it takes an argument, else a switch. */
export function parseArgsConfig(command: CommandName, table: Table = OPTIONS): FlagConfig {
  return Object.fromEntries(
    onCommandLine(command, table).map(({ cli }) => [
      cli.flag,
      { type: cli.arg ? 'string' : 'boolean', ...(cli.multiple ? { multiple: true } : {}) },
    ]),
  ) as FlagConfig;
}

/** An argument's text as its value: `parse`, or a number when the value is one, else the text. */
function fromText(d: OptionDeclaration): (text: string) => unknown {
  if (d.cli?.parse) return d.cli.parse;
  return d.value instanceof z.ZodNumber ? (text) => (text.trim() === '' ? Number.NaN : Number(text)) : (text) => text;
}

/** One flag's schema: its text (or texts, or the switch) made into the value, then checked as the library checks it. */
function flagSchema(d: OptionDeclaration & { cli: NonNullable<OptionDeclaration['cli']> }): z.ZodType {
  const convert = fromText(d);
  const text = z.string().transform((s, ctx) => {
    try {
      return convert(s);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  });
  const value = d.value as z.ZodType<unknown, any>;
  if (!d.cli.arg)
    return z
      .boolean()
      .transform(() => d.cli.sets ?? true)
      .pipe(value);
  return d.cli.multiple ? z.array(text).pipe(value) : text.pipe(value);
}

/** The schema of a command's parsed flags (keyed by flag), each optional; the values come out as the library's. */
export function commandLineSchema(command: CommandName, table: Table = OPTIONS): z.ZodObject {
  return z.object(Object.fromEntries(onCommandLine(command, table).map((d) => [d.cli.flag, flagSchema(d).optional()])));
}

/** Parsed flags by the library's keys, with the command line's own defaults where not given. */
export function byKey(
  command: CommandName,
  flags: Record<string, unknown>,
  table: Table = OPTIONS,
): Record<string, unknown> {
  const values = commandLineDefaults(command, table);
  for (const { key, cli } of onCommandLine(command, table))
    if (flags[cli.flag] !== undefined) values[key] = flags[cli.flag];
  return values;
}

/** The command line's own defaults, where they differ from the library's (workers: cores − 1, not this process). */
export function commandLineDefaults(command: CommandName, table: Table = OPTIONS): Record<string, unknown> {
  return Object.fromEntries(
    onCommandLine(command, table).flatMap(({ key, cli }) => (cli.default ? [[key, cli.default()]] : [])),
  );
}

/** The first option the command cannot do without that is missing, as its flag. */
export function missingFlag(
  command: CommandName,
  values: Record<string, unknown>,
  table: Table = OPTIONS,
): string | undefined {
  return onCommandLine(command, table).find((d) => d.required?.includes(command) && values[d.key] === undefined)?.cli
    .flag;
}

/** Help lines wrap here. */
const WIDTH = 80;
/** Descriptions start no further right than this, whatever the longest flag. */
const MAX_COLUMN = 24;

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** An option's help as the command shows it, its default written in. */
export function helpOf(d: OptionDeclaration, command: CommandName): string {
  const help = typeof d.help === 'function' ? d.help(command) : d.help;
  return help.replaceAll('{default}', String(d.default));
}

/** The "Options:" block of a command's help: one entry per flag it takes (but hidden ones), in the table's order. */
export function optionsHelp(command: CommandName, table: Table = OPTIONS): string {
  const shown = onCommandLine(command, table).filter((d) => !d.cli.hidden);
  const heads = shown.map(({ cli }) => `--${cli.flag}${cli.arg ? ` ${cli.arg}` : ''}`);
  const column = Math.min(MAX_COLUMN, 4 + Math.max(0, ...heads.map((h) => h.length)));
  const indent = ' '.repeat(column);
  return shown
    .map((d, i) => {
      const head = `  ${heads[i] as string}`;
      const [first = '', ...rest] = wrap(helpOf(d, command), WIDTH - column);
      const lines = head.length + 2 > column ? [head, `${indent}${first}`] : [`${head.padEnd(column)}${first}`];
      lines.push(...rest.map((l) => `${indent}${l}`));
      if (d.cli.list) lines.push(d.cli.list(`${indent}  `));
      return lines.join('\n');
    })
    .join('\n');
}

/** A command's whole help: what it is (`head`: its synopsis and description), its options, and any `tail`. */
export function commandHelp(command: CommandName, head: string, tail?: string, table: Table = OPTIONS): string {
  const options = optionsHelp(command, table);
  return [head, ...(options ? [`Options:\n${options}`] : []), ...(tail ? [tail] : [])].join('\n\n');
}

/** What a library call takes (keyed by the library's names), every option optional here; other keys pass. */
export function librarySchema(command: CommandName, table: Table = OPTIONS): z.ZodObject {
  const library = optionsOf(command, table).filter((d) => !d.cliOnly);
  return z.object(Object.fromEntries(library.map((d) => [d.key, d.value.optional()]))).passthrough();
}

/** Checks a library call's options at its edge: a UsageError names what is missing or wrong (up to five). */
export function checkOptions(command: CommandName, given: unknown, table: Table = OPTIONS): void {
  if (typeof given !== 'object' || given === null)
    throw new UsageError(`the options of ${command} are an object; got ${given === null ? 'null' : typeof given}`);
  const missing = optionsOf(command, table).find(
    (d) => !d.cliOnly && d.required?.includes(command) && (given as Record<string, unknown>)[d.key] === undefined,
  );
  if (missing) throw new UsageError(`give ${missing.key}`);
  const r = librarySchema(command, table).safeParse(given);
  if (!r.success)
    throw new UsageError(
      r.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || 'options'}: ${i.message}${gotAt(given, i.path)}`)
        .join('; '),
    );
}

/** What was given where an issue points, shown short (a user's value, which may be anything). */
function gotAt(given: object, path: readonly PropertyKey[]): string {
  if (!path.length) return '';
  let v: unknown = given;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return `; got ${String(v)}`;
  if (typeof v === 'string') return `; got ${JSON.stringify(v.slice(0, 60))}${v.length > 60 ? '…' : ''}`;
  return `; got ${v === null ? 'null' : v === undefined ? 'nothing' : Array.isArray(v) ? 'a list' : typeof v}`;
}

/**
 * search: the options run.json records (by their keys there) that `which` picks (the recorded ones, or the ones a
 * resume may change), from `values`: as given, or with their defaults.
 */
export function recordedOptions(
  command: CommandName,
  values: object,
  which: (d: OptionDeclaration) => boolean,
  table: Table = OPTIONS,
): Record<string, unknown> {
  const given = values as Record<string, unknown>;
  return Object.fromEntries(
    optionsOf(command, table)
      .filter((d) => d.recorded !== undefined && which(d) && given[d.key] !== undefined)
      .map((d) => [d.recorded === true ? d.key : (d.recorded as string), given[d.key]]),
  );
}

/** The defaults a library call applies, by key. */
export function defaultsOf(command: CommandName, table: Table = OPTIONS): Record<string, unknown> {
  return Object.fromEntries(
    optionsOf(command, table)
      .filter((d) => d.default !== undefined)
      .map((d) => [d.key, d.default]),
  );
}

/** A library call's options with the defaults of those not given. */
export function withDefaults<C extends CommandName, O extends object>(command: C, given: O): O & Defaulted<C> {
  const filled: Record<string, unknown> = { ...(given as Record<string, unknown>) };
  for (const [key, value] of Object.entries(defaultsOf(command))) filled[key] ??= value;
  return filled as O & Defaulted<C>;
}

// The library's types, from the table: a command's options by key, optional but where the command requires them.
type Takes<D, C> = D extends { commands: readonly (infer X)[] } ? (C extends X ? D : never) : never;
type InLibrary<D> = D extends { cliOnly: true } ? never : D;
type RequiredIn<D, C> = D extends { required: readonly (infer R)[] } ? (C extends R ? D : never) : never;
type WithDefault<D> = D extends { default: unknown } ? D : never;
type Library<C> = InLibrary<Takes<Declared, C>>;

/** What the library call of a command takes (search(): OptionValues<'search'>). */
export type OptionValues<C extends CommandName> = {
  [D in Library<C> as D extends RequiredIn<D, C> ? never : D['key']]?: z.output<D['value']>;
} & { [D in RequiredIn<Library<C>, C> as D['key']]: z.output<D['value']> };

/** The options that have a default, given once withDefaults has run. */
export type Defaulted<C extends CommandName> = { [D in WithDefault<Library<C>> as D['key']]: z.output<D['value']> };

type Flagged<C> = Extract<Takes<Declared, C>, { cli: object }>;

/** A command's parsed command line, by the library's keys (the command-line-only ones, such as json, included). */
export type CommandLineValues<C extends CommandName> = {
  [D in Flagged<C> as D extends RequiredIn<D, C> ? never : D['key']]?: z.output<D['value']>;
} & { [D in RequiredIn<Flagged<C>, C> as D['key']]: z.output<D['value']> };
