// What a user of an exported memory may pass in, validated at the edge: options of createMemory, episodes for
// update() and tasks for retrieve(). Episodes and tasks follow the contract, with defaults for what a caller
// outside a benchmark rarely has (env, initial observation, steps, meta). An image may come as bytes (base64
// `data`), which the memory stores and replaces by a reference.
import { z } from 'zod';
import type { Json } from '../../memo-programs/contract.ts';
import { QuotasSchema } from '../../sandbox/primitives/quotas.ts';
import { ImageRefSchema, JsonSchema } from '../../sandbox/schemas.ts';

const ModelOption = z
  .object({
    model: z.string().min(1),
    /** Any OpenAI-compatible endpoint. */
    baseURL: z.string().url().optional(),
    apiKey: z.string().optional(),
    timeoutMs: z.number().int().positive().optional(),
  })
  .strict();
export type ModelOption = z.infer<typeof ModelOption>;

export const MemoryOptionsSchema = z
  .object({
    /**
     * Where this memory lives: loaded from there when it holds a saved memory; save() writes there. It must be missing,
     * an empty folder, or a memory automemo saved: any other folder is refused, so nothing of yours is replaced.
     */
    memoryDir: z.string().min(1).max(4096).refine((p) => !p.includes('\0'), 'holds a NUL character').optional(),
    /** Start empty instead of from the memory built from the run's update episodes. */
    fresh: z.boolean().optional(),
    /** Rebuild by replaying the logged episodes even when a snapshot could be restored (say, for a new embedding model). */
    rebuild: z.boolean().optional(),
    /** Models of the memo (ctx.llm, captions) and embedding (ctx.embed) roles; absent or null: offline. */
    models: z.object({ memo: ModelOption.nullable().optional(), embedding: ModelOption.nullable().optional() }).strict().optional(),
    /** Sandbox limits: isolate heap cap (MB), CPU and wall-clock time per call, program load time. */
    limits: z
      .object({
        heapMb: z.number().int().min(16).max(16_384),
        callCpuMs: z.number().int().positive(),
        callWallMs: z.number().int().positive(),
        loadMs: z.number().int().positive(),
      })
      .partial()
      .strict()
      .optional(),
    /** Quotas on host primitives (embedding batches, vector bytes, kv bytes, model calls, ...). */
    quotas: QuotasSchema.partial().optional(),
    /** Payload budget of retrieve(); default: the environment's. */
    budget: z.object({ maxChars: z.number().int().positive(), maxImages: z.number().int().min(0) }).partial().strict().optional(),
    /** Seed of Math.random and ctx.random inside the program. */
    seed: z.number().int().optional(),
    /** Receives the program's ctx.log lines. */
    onLog: z.custom<(line: string) => void>((v) => typeof v === 'function', { message: 'expected a function' }).optional(),
  })
  .strict();
export type MemoryOptions = z.infer<typeof MemoryOptionsSchema>;

const ImageInput = z.union([
  ImageRefSchema,
  z
    .object({ data: z.string().min(1).describe('image bytes, base64'), mime: z.string().min(1).optional(), caption: z.string().optional() })
    .strict(),
]);
/** An image given to the memory: a reference it already holds, or the bytes (base64). */
export type ImageInput = z.input<typeof ImageInput>;

const Observation = z
  .object({ text: z.string().optional(), url: z.string().optional(), images: z.array(ImageInput).max(64).optional() })
  .strict();
export type ObservationInput = z.input<typeof Observation>;

const Step = z
  .object({
    /** Default: its position. */
    index: z.number().int().min(0).optional(),
    observation: Observation.optional(),
    thought: z.string().optional(),
    action: z.string(),
    result: z.string().optional(),
    error: z.string().optional(),
  })
  .strict();
export type StepInput = z.input<typeof Step>;

/** JsonSchema takes any value and accepts only JSON; callers are told to pass JSON (the published types say so). */
const JsonIn = JsonSchema as z.ZodType<Json, Json>;

const taskShape = {
  taskId: z.string().min(1).max(500),
  /** Default: the environment the program was selected on. */
  env: z.string().min(1).optional(),
  domain: z.string().optional(),
  instruction: z.string(),
  initial: Observation.default({}),
  meta: z.record(z.string(), JsonIn).default({}),
};

export const EpisodeInputSchema = z
  .object({
    ...taskShape,
    steps: z.array(Step).max(10_000).default([]),
    answer: z.string().optional(),
    outcome: z.object({ reward: z.number().min(0).max(1), success: z.boolean(), note: z.string().optional() }).strict(),
  })
  .strict();
/** A finished episode: what update() learns from. */
export type EpisodeInput = z.input<typeof EpisodeInputSchema>;

export const TaskInputSchema = z.object(taskShape).strict();
/** A task about to start: what retrieve() is asked about. */
export type TaskInput = z.input<typeof TaskInputSchema>;

/** Virtual time of a call (ms since the epoch); default: the wall clock. */
export const CallOptionsSchema = z.object({ time: z.number().int().min(0).optional() }).strict().optional();
export type CallOptions = z.infer<typeof CallOptionsSchema>;

/** Parses `value`, or throws an error naming `what` and every problem. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, what: string): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw new TypeError(`${what}: ${z.prettifyError(r.error)}`);
  return r.data;
}
