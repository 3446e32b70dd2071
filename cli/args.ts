// Argument parsing for every command, from the options' one declaration (api/options/catalog.ts): Node's parseArgs
// for the shape, the options' schemas for the values. Any problem is a UsageError, which the CLI prints in one line
// with a pointer to the command's --help, and exits 2.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { asUsage, ContentError, UsageError } from '../foundation/usage-error.ts';
import { didYouMean } from '../foundation/closest.ts';
import {
  byKey,
  type CommandLineValues,
  commandLineSchema,
  missingFlag,
  parseArgsConfig,
} from '../api/options/derive.ts';
import type { CommandName } from '../api/options/declare.ts';

export { asUsage, ContentError, UsageError };

export interface ParseOptions<C extends CommandName> {
  /** What the command takes besides its flags, and the message when that is wrong. */
  positionals: z.ZodType<string[]>;
  /** Folds the positionals into the values (eval's program, given alone), before the required options are asked for. */
  merge?: (values: Partial<CommandLineValues<C>>, positionals: string[]) => Partial<CommandLineValues<C>>;
}

/** A command's arguments as the library's values (by its keys), with the positionals beside them. */
export function parse<C extends CommandName>(
  command: C,
  argv: string[],
  o: ParseOptions<C>,
): CommandLineValues<C> & { positionals: string[] } {
  const config = parseArgsConfig(command);
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: config, allowPositionals: true, strict: true });
  } catch (err) {
    const unknown =
      (err as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? /'(-{1,2}[^']+)'/.exec((err as Error).message)?.[1]
        : undefined;
    if (unknown) {
      // A near miss says what was meant; the whole usage helps only when nothing is near.
      const near = didYouMean(unknown.replace(/^-+/, '').replace(/=.*$/, ''), Object.keys(config), (n) => `--${n}`);
      throw new UsageError(`unknown option ${unknown}${near}`, { showUsage: !near });
    }
    throw new UsageError((err as Error).message.replace(/^TypeError \[\w+\]: /, ''));
  }
  const result = commandLineSchema(command)
    .extend({ positionals: o.positionals })
    .safeParse({ ...parsed.values, positionals: parsed.positionals });
  if (!result.success) {
    const first = result.error.issues[0];
    const flag = first?.path.length && first.path[0] !== 'positionals' ? `--${String(first.path[0])}` : undefined;
    const message = first?.message ?? 'invalid arguments';
    // Positionals are not options: their messages say what to give on their own; so does a message naming its flag.
    throw new UsageError(flag && !message.includes(flag) ? `${flag}: ${message}` : message);
  }
  const { positionals, ...flags } = result.data as Record<string, unknown> & { positionals: string[] };
  let values = byKey(command, flags) as Partial<CommandLineValues<C>>;
  if (o.merge) values = o.merge(values, positionals);
  const missing = missingFlag(command, values);
  if (missing) throw new UsageError(`give --${missing}`);
  return { ...(values as CommandLineValues<C>), positionals };
}

/** No positional arguments, said in the command's name. */
export const noPositionals = (command: CommandName) =>
  z.array(z.string()).max(0, `${command} takes no positional arguments`);
