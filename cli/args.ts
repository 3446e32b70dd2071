// Argument parsing for every command: Node's parseArgs for the shape, zod for the values. Any problem is a
// UsageError, which the CLI prints with the command's usage and exits 2.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import { asUsage, ContentError, UsageError } from '../foundation/usage-error.ts';
import { didYouMean } from '../foundation/closest.ts';
import { defaultWorkers } from '../api/worker-count.ts';
import { MAX_SEED, MAX_WORKERS, PROTOCOLS } from '../api/limits.ts';

export { asUsage, ContentError, UsageError };

export function parse<T extends z.ZodType>(
  argv: string[],
  options: NonNullable<ParseArgsConfig['options']>,
  schema: T,
): z.infer<T> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    const unknown = (err as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(-{1,2}[^']+)'/.exec((err as Error).message)?.[1] : undefined;
    if (unknown) {
      // A near miss says what was meant; the whole usage helps only when nothing is near.
      const near = didYouMean(unknown.replace(/^-+/, '').replace(/=.*$/, ''), Object.keys(options), (n) => `--${n}`);
      throw new UsageError(`unknown option ${unknown}${near}`, { showUsage: !near });
    }
    throw new UsageError((err as Error).message.replace(/^TypeError \[\w+\]: /, ''));
  }
  const result = schema.safeParse({ ...parsed.values, positionals: parsed.positionals });
  if (!result.success) {
    const first = result.error.issues[0];
    // Positionals are not options: their messages say what to give on their own.
    const where = first?.path.length && first.path[0] !== 'positionals' ? `--${String(first.path[0])}: ` : '';
    throw new UsageError(`${where}${first?.message ?? 'invalid arguments'}`);
  }
  return result.data;
}

/** --seed and --split-seed: one meaning in every command (engine/run-seeds.ts). */
export const SEED_OPTIONS = { seed: { type: 'string' }, 'split-seed': { type: 'string' } } as const;

/** Schema fields for SEED_OPTIONS. */
export const seedFields = () => ({ seed: intOption(0, MAX_SEED), 'split-seed': intOption(0, MAX_SEED) });

/** The seeds as the API takes them. */
export function seedArgs(a: { seed?: number | undefined; 'split-seed'?: number | undefined }): { seed?: number; splitSeed?: number } {
  return { ...(a.seed !== undefined ? { seed: a.seed } : {}), ...(a['split-seed'] !== undefined ? { splitSeed: a['split-seed'] } : {}) };
}

/** Usage lines for --seed and --split-seed, with the descriptions starting at column `indent`. */
export function seedUsage(indent: number): string {
  const line = (flag: string, text: string[]) => text.map((t, i) => (i === 0 ? `  ${flag.padEnd(indent - 2)}${t}` : `${' '.repeat(indent)}${t}`)).join('\n');
  return [
    line('--seed N', ["the run's seed (default 0): the split, the sandbox's", 'random numbers and any sampling derive from it']),
    line('--split-seed N', ['hold the split fixed whatever --seed (default: --seed)']),
  ].join('\n');
}

/** Options shared by the commands that evaluate on an environment (eval, baselines). */
export const EVAL_OPTIONS = {
  env: { type: 'string' },
  split: { type: 'string' },
  data: { type: 'string' },
  strict: { type: 'boolean' },
  ...SEED_OPTIONS,
  tasks: { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean' },
  workers: { type: 'string' },
  queue: { type: 'string' },
  protocol: { type: 'string' },
} as const;

/** A numeric option given as a string on the command line. */
export const intOption = (min: number, max: number) =>
  z.coerce
    .number({ error: `expected a whole number from ${min} to ${max}` })
    .int({ error: `expected a whole number from ${min} to ${max}` })
    .min(min, { error: `expected a whole number from ${min} to ${max}` })
    .max(max, { error: `expected a whole number from ${min} to ${max}` })
    .optional();

/** Schema fields for EVAL_OPTIONS. */
export const evalFields = () => ({
  env: z.string({ error: 'give --env' }),
  // `validation`, as the roles and the README call it; `train`, its old name, is the same.
  split: z
    .enum(['validation', 'train', 'test'], { error: (i) => `validation (the tasks a search validates on) or test (held out); got ${JSON.stringify(String(i.input).slice(0, 60))}` })
    .default('test'),
  data: z.string().optional(),
  strict: z.boolean().optional(),
  ...seedFields(),
  tasks: intOption(1, 1_000_000),
  out: z.string().optional(),
  json: z.boolean().optional(),
  workers: intOption(0, MAX_WORKERS),
  queue: z.string().optional(),
  protocol: protocolField(),
});

/** --protocol: what a memory asked test questions learns from (engine/environment/protocol.ts). */
export const protocolField = () =>
  z.enum(PROTOCOLS, { error: (i) => `update (the update episodes only; the default) or update+validation; got ${JSON.stringify(String(i.input).slice(0, 60))}` }).optional();

/** Usage lines for --protocol, with the descriptions starting at column `indent`. */
export function protocolUsage(indent: number): string {
  const pad = ' '.repeat(indent);
  return `  ${'--protocol P'.padEnd(indent - 2)}what a memory asked test questions learns from: update
${pad}(the update episodes only, as during a search; default) or
${pad}update+validation (history benchmarks: the whole history)`;
}

/** Where a command's evaluations run: --queue when given, else --workers (default: cores - 1, or AUTOMEMO_WORKERS). */
export function evaluationPlace(a: { workers?: number | undefined; queue?: string | undefined }): { queue: string } | { workers: number } {
  return a.queue ? { queue: a.queue } : { workers: a.workers ?? defaultWorkers() };
}

/** Usage lines for --workers and --queue. */
export const WORKER_USAGE = `  --workers N       local worker processes (default: cores - 1, at least 1;
                    0 evaluates in this process)
  --queue URL       evaluate on \`automemo worker --queue URL\` processes
                    through Redis (redis://[:password@]host:port, rediss://)`;
