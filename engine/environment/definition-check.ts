// A definition and what its `load` returns come from someone else's code: check their shape when they arrive and
// name every missing or wrong part, instead of failing later deep inside a search.
import { z } from 'zod';
import type { Environment } from './contract.ts';
import type { EnvironmentDefinition } from './define.ts';
import type { TaskEnvironmentSpec } from './task-spec.ts';
import { looksLikeSpec } from './task-spec-check.ts';
import { unknownKeys } from '../../foundation/unknown-keys.ts';

const fn = (what: string) =>
  z.custom<(...args: unknown[]) => unknown>((v) => typeof v === 'function', { message: `${what} must be a function` });

export const ENV_NAME = /^[a-z][a-z0-9-]{0,63}$/;
const MAX_LIMIT_MS = 86_400_000;
const limitMs = (name: string) =>
  z
    .number({ error: `limits.${name} must be a number of milliseconds` })
    .int(`limits.${name} must be whole milliseconds`)
    .min(1, `limits.${name} must be at least 1 ms`)
    .max(MAX_LIMIT_MS, `limits.${name} is over a day`)
    .optional();

const DefinitionSchema = z.object({
  name: z
    .string({ error: 'name is missing (a lower-case name: letters, digits, dashes)' })
    .regex(ENV_NAME, 'name must be lower-case letters, digits and dashes, starting with a letter (at most 64)'),
  summary: z
    .string({ error: 'summary is missing (one line for help)' })
    .min(1, 'summary is empty')
    .max(300, 'summary is over 300 characters'),
  options: z.string().max(200).optional(),
  argIsPath: z.boolean({ error: 'argIsPath must be true or false' }).optional(),
  load: fn('load'),
  dataFiles: fn('dataFiles').optional(),
  limits: z
    .object(
      { loadMs: limitMs('loadMs'), agentMs: limitMs('agentMs'), checkMs: limitMs('checkMs') },
      { error: 'limits must be { loadMs?, agentMs?, checkMs? }' },
    )
    .strict()
    .optional(),
});

const EnvironmentShape = z.object({
  info: fn('info'),
  worlds: fn('worlds'),
  run: fn('run'),
  samples: fn('samples'),
  scenario: fn('scenario'),
});

function problems(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((i) =>
      i.path.length && !i.message.startsWith(String(i.path[0])) ? `${i.path.join('.')}: ${i.message}` : i.message,
    )
    .join('; ');
}

/** The definition, or an error naming where it came from and each problem. */
export function checkDefinition(value: unknown, from: string): EnvironmentDefinition {
  if (value === null || typeof value !== 'object') {
    throw new Error(
      `${from}: expected an environment definition (export default defineEnvironment({ name, summary, load })), got ${value === null ? 'null' : typeof value}`,
    );
  }
  const r = DefinitionSchema.safeParse(value);
  const unknown = unknownKeys(Object.keys(value), Object.keys(DefinitionSchema.shape));
  if (!r.success || unknown.length)
    throw new Error(
      `${from}: not a usable environment definition: ${[...unknown, ...(r.success ? [] : [problems(r.error)])].join('; ')}`,
    );
  return value as EnvironmentDefinition;
}

/** What `load` returned: a full environment or a task spec, else an error naming what is missing from either. */
export function checkLoaded(
  value: unknown,
  name: string,
): { kind: 'environment'; env: Environment } | { kind: 'tasks'; spec: TaskEnvironmentSpec<unknown> } {
  if (value === null || typeof value !== 'object')
    throw new Error(
      `environment "${name}": load() returned ${value === null ? 'null' : typeof value}; return tasks + agent (+ check), or an Environment`,
    );
  // A task spec is checked in full by the task environment, which names every problem at once (a misspelt key too).
  if ('tasks' in value || 'agent' in value) return { kind: 'tasks', spec: value as TaskEnvironmentSpec<unknown> };
  const r = EnvironmentShape.safeParse(value);
  if (r.success) return { kind: 'environment', env: value as Environment };
  if (looksLikeSpec(value)) return { kind: 'tasks', spec: value as TaskEnvironmentSpec<unknown> };
  throw new Error(
    `environment "${name}": load() returned neither tasks + agent nor a complete Environment: ${problems(r.error)}`,
  );
}
