// A task spec comes from a researcher's code: check all of it when it arrives and name every missing or wrong part
// at once (which task, which field), instead of failing later in the middle of a search. Sizes are bounded before
// any per-task work.
import { z } from 'zod';
import { closest } from '../../foundation/closest.ts';
import { unknownKeys } from '../../foundation/unknown-keys.ts';
import { JsonSchema } from '../../sandbox/schemas.ts';
import type { TaskEnvironmentSpec, TaskRole } from './task-spec.ts';

export const MAX_TASKS = 200_000;
const MAX_IMAGES_PER_TASK = 64;
const MAX_IMAGE_BYTES = 32 * 2 ** 20;
/** Problems listed in one message; the rest are counted. */
const SHOWN = 12;

const fn = (what: string) =>
  z.custom<(...args: unknown[]) => unknown>((v) => typeof v === 'function', { message: `${what} must be a function` });
const name = (what: string, max: number) =>
  z
    .string({ error: `${what} is missing (a string)` })
    .min(1, `${what} is empty`)
    .max(max, `${what} is over ${max} characters`);

const ImageSchema = z.object(
  {
    bytes: z
      .custom<Uint8Array>((v) => v instanceof Uint8Array, {
        message: 'bytes must be a Uint8Array (or Buffer) of the image file',
      })
      .refine((b) => b.byteLength > 0 && b.byteLength <= MAX_IMAGE_BYTES, {
        message: `bytes must hold 1 to ${MAX_IMAGE_BYTES} bytes`,
      }),
    mime: z.enum(['image/png', 'image/jpeg', 'image/webp', 'image/gif'], {
      error: 'mime must be image/png, image/jpeg, image/webp or image/gif',
    }),
    caption: z.string().max(2000).optional(),
  },
  { error: 'each image must be an object { bytes, mime, caption? }' },
);

const TaskSchema = z.object(
  {
    id: name('id', 500),
    scenario: name('scenario', 500),
    instruction: name('instruction', 1_000_000),
    domain: name('domain', 500).optional(),
    world: name('world', 500).optional(),
    role: z.enum(['update', 'validation', 'test'], { error: 'role must be update, validation or test' }).optional(),
    context: z
      .string({ error: 'context must be a string' })
      .max(2_000_000, 'context is over 2,000,000 characters')
      .optional(),
    images: z
      .array(ImageSchema, { error: 'images must be an array' })
      .max(MAX_IMAGES_PER_TASK, `at most ${MAX_IMAGES_PER_TASK} images a task`)
      .optional(),
    meta: z.record(z.string(), JsonSchema, { error: 'meta must be an object of JSON values' }).optional(),
  },
  { error: 'a task must be an object { id, scenario, instruction, ... }' },
);

const SpecSchema = z.object({
  agent: z.object(
    {
      id: name('agent.id', 500),
      run: fn('agent.run'),
      mode: z.enum(['offline', 'model'], { error: 'agent.mode must be offline or model' }).optional(),
      deterministic: z.boolean({ error: 'agent.deterministic must be true or false' }).optional(),
    },
    { error: 'agent is missing (an object with id and run)' },
  ),
  check: fn('check').optional(),
  explain: fn('explain').optional(),
  close: fn('close').optional(),
  description: name('description', 20_000),
  reward: name('reward', 500),
  guide: z
    .object(
      {
        reward: name('guide.reward', 5_000).optional(),
        schema: name('guide.schema', 10_000).optional(),
        reader: name('guide.reader', 10_000).optional(),
      },
      { error: 'guide must be { reward?, schema?, reader? } (strings)' },
    )
    .strict()
    .optional(),
  split: z
    .object(
      {
        trainShare: z
          .number()
          .gt(0, 'split.trainShare must be above 0')
          .max(1, 'split.trainShare must be at most 1')
          .optional(),
        validationShare: z
          .number()
          .gt(0, 'split.validationShare must be above 0')
          .lt(1, 'split.validationShare must be below 1')
          .optional(),
        update: z
          .number()
          .int('split.update must be a whole number')
          .min(1, 'split.update must be at least 1')
          .max(MAX_TASKS)
          .optional(),
        validation: z
          .number()
          .int('split.validation must be a whole number')
          .min(1, 'split.validation must be at least 1')
          .max(MAX_TASKS)
          .optional(),
      },
      {
        error:
          'split must be { trainShare?, validationShare? } (shares per scenario) or { update?, validation? } (counts in all)',
      },
    )
    .strict()
    .refine(
      (s) =>
        !(
          (s.trainShare !== undefined || s.validationShare !== undefined) &&
          (s.update !== undefined || s.validation !== undefined)
        ),
      {
        message: 'split takes shares (trainShare, validationShare) or counts (update, validation), not both',
      },
    )
    .optional(),
  budget: z
    .object(
      { maxChars: z.number().int().positive(), maxImages: z.number().int().nonnegative() },
      { error: 'budget must be { maxChars, maxImages }' },
    )
    .optional(),
  data: z.record(z.string(), JsonSchema, { error: 'data must be an object of JSON values' }).optional(),
  collect: z
    .object(
      { concurrency: z.number().int().min(1).max(64).optional(), attempts: z.number().int().min(1).max(20).optional() },
      { error: 'collect must be { concurrency?, attempts? }' },
    )
    .optional(),
});

/** "tasks[3]: id is missing (a string)", "agent.id is empty", "tasks[0].images.1: mime must be ...". */
function issues(error: z.ZodError, prefix: string): string[] {
  return error.issues.map((i) => {
    const path = i.path.map(String).join('.');
    const last = i.path.length ? String(i.path[i.path.length - 1]) : '';
    const parent = i.path.slice(0, -1).map(String).join('.');
    // Messages that start with the field's name keep only the path above it.
    const above = !path || i.message.startsWith(path) ? '' : i.message.startsWith(last) ? parent : path;
    const where = [prefix, above].filter(Boolean).join('.');
    return where ? `${where}: ${i.message}` : i.message;
  });
}

const MAX_JSON_DEPTH = 100;
const MAX_JSON_VALUES = 1_000_000;

/**
 * Why `value` cannot be written as JSON data — it refers to itself, or nests past MAX_JSON_DEPTH — naming where
 * (`name` first); undefined when it can. The walk is bounded (MAX_JSON_VALUES) and recurses at most MAX_JSON_DEPTH
 * deep; the types of the values are the schema's business.
 */
export function jsonDataProblem(value: unknown, name: string): string | undefined {
  const ancestors = new Set<object>();
  const keys: string[] = [name];
  let values = 0;
  const walk = (v: unknown): string | undefined => {
    if (++values > MAX_JSON_VALUES) return `it holds more than ${MAX_JSON_VALUES.toLocaleString('en')} values`;
    if (v === null || typeof v !== 'object') return undefined;
    if (ancestors.has(v)) return `it refers to itself at ${keys.join('')}`;
    if (ancestors.size >= MAX_JSON_DEPTH) return `it is nested deeper than ${MAX_JSON_DEPTH} levels`;
    ancestors.add(v);
    const list = Array.isArray(v);
    for (const [k, x] of list ? v.entries() : Object.entries(v)) {
      keys.push(list ? `[${k}]` : `.${String(k).slice(0, 40)}`);
      const problem = walk(x);
      if (problem) return problem;
      keys.pop();
    }
    ancestors.delete(v);
    return undefined;
  };
  return walk(value);
}

const SPEC_KEYS = Object.keys(SpecSchema.shape).concat('tasks');
const TASK_KEYS = Object.keys(TaskSchema.shape).concat('truth');
const AGENT_KEYS = ['id', 'run', 'mode', 'deterministic'];

/** Keys tasks hold that a task does not have, each once: where it first appears and in how many tasks. */
function unknownTaskKeys(tasks: unknown[]): string[] {
  const seen = new Map<string, { first: number; count: number }>();
  for (const [i, task] of tasks.entries()) {
    if (task === null || typeof task !== 'object') continue;
    for (const k of Object.keys(task)) {
      if (TASK_KEYS.includes(k)) continue;
      const s = seen.get(k);
      if (s) s.count++;
      else if (seen.size < SHOWN) seen.set(k, { first: i, count: 1 });
    }
  }
  return [...seen].map(
    ([k, s]) =>
      `tasks[${s.first}]${s.count > 1 ? ` (and ${s.count - 1} more tasks)` : ''}: ${unknownKeys([k], TASK_KEYS)[0]}`,
  );
}

/** Whether an object looks meant as a task spec: it has tasks or agent, or a key a typo away from one of the spec's. */
export function looksLikeSpec(value: object): boolean {
  return (
    'tasks' in value ||
    'agent' in value ||
    Object.keys(value).some(
      (k) => closest(k, SPEC_KEYS) !== undefined && !['info', 'run', 'worlds', 'samples', 'scenario'].includes(k),
    )
  );
}

/** Problems of the spec's shape: every task's, the agent's and the rest; empty when it is usable. */
export function specProblems(value: unknown): string[] {
  if (value === null || typeof value !== 'object')
    return [`expected tasks + agent (+ check), got ${value === null ? 'null' : typeof value}`];
  const spec = value as Record<string, unknown>;
  const out: string[] = [...unknownKeys(Object.keys(spec), SPEC_KEYS)];
  if (spec.agent && typeof spec.agent === 'object')
    out.push(...unknownKeys(Object.keys(spec.agent), AGENT_KEYS).map((p) => `agent: ${p}`));
  // Data that cannot be JSON is named before the schema sees it (JSON.stringify failed later, naming nothing).
  const dataProblem = spec.data === undefined ? undefined : jsonDataProblem(spec.data, 'data');
  if (dataProblem) out.push(`data is not JSON data: ${dataProblem}`);
  try {
    const r = SpecSchema.safeParse(dataProblem ? { ...spec, data: undefined } : spec);
    if (!r.success) out.push(...issues(r.error, ''));
  } catch (err) {
    out.push(`the spec could not be read: ${(err as Error).message}`);
  }
  const tasks = spec.tasks;
  if (!Array.isArray(tasks)) return [...out, 'tasks must be an array of tasks'];
  if (tasks.length === 0) return [...out, 'tasks is empty: give at least one update, one validation and one test task'];
  if (tasks.length > MAX_TASKS) return [...out, `tasks holds ${tasks.length} tasks; at most ${MAX_TASKS}`];
  out.push(...unknownTaskKeys(tasks));
  const seen = new Map<string, number>();
  for (const [i, task] of tasks.entries()) {
    if (out.length > SHOWN * 4) break;
    const id = (task as { id?: unknown } | null)?.id;
    const meta = (task as { meta?: unknown } | null)?.meta;
    const metaProblem = meta === undefined ? undefined : jsonDataProblem(meta, 'meta');
    if (metaProblem)
      out.push(
        `tasks[${i}].meta${typeof id === 'string' ? ` (task ${JSON.stringify(id.slice(0, 100))})` : ''} is not JSON data: ${metaProblem}`,
      );
    try {
      const r = TaskSchema.safeParse(metaProblem ? { ...(task as object), meta: undefined } : task);
      if (!r.success) out.push(...issues(r.error, `tasks[${i}]`));
    } catch (err) {
      out.push(`tasks[${i}] could not be read: ${(err as Error).message}`);
    }
    if (typeof id === 'string' && id) {
      const first = seen.get(id);
      if (first !== undefined)
        out.push(
          `tasks[${i}].id ${JSON.stringify(id.slice(0, 100))} is the id of tasks[${first}] too; ids must be unique`,
        );
      else seen.set(id, i);
    }
  }
  return out;
}

/** Problems of the roles (given or assigned): each split needs a task of each kind it uses. */
export function roleProblems(roles: readonly TaskRole[]): string[] {
  const count = (r: TaskRole) => roles.filter((x) => x === r).length;
  const out: string[] = [];
  const hint =
    'give some tasks that role, or leave roles out and let the engine assign them (split: { update, validation } counts, or trainShare / validationShare)';
  if (!count('update')) out.push(`no task has the role update (the episodes a memory learns from): ${hint}`);
  if (!count('validation')) out.push(`no task has the role validation (what the search asks about): ${hint}`);
  if (!count('test')) out.push(`no task has the role test (asked once at the end): ${hint}`);
  return out;
}

/** Throws one error naming the environment and every problem (the first dozen, then how many more). */
export function throwProblems(envName: string, problems: string[]): void {
  if (!problems.length) return;
  const shown = problems
    .slice(0, SHOWN)
    .map((p) => `  - ${p}`)
    .join('\n');
  const more = problems.length > SHOWN ? `\n  … and ${problems.length - SHOWN} more` : '';
  throw new Error(`environment "${envName}": the task spec is not usable:\n${shown}${more}`);
}

/** The spec, checked: its shape first, then (once roles are known) that every split has its tasks. */
export function checkTaskSpec<T>(value: unknown, envName: string): TaskEnvironmentSpec<T> {
  throwProblems(envName, specProblems(value));
  return value as TaskEnvironmentSpec<T>;
}
