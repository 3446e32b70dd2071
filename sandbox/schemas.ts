// Schemas of the contract's data, for validating what crosses the sandbox boundary and what environments produce.
import { z } from 'zod';
import type { Json } from '../memo-programs/contract.ts';

export const JsonSchema: z.ZodType<Json> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number().finite(), z.string(), z.array(JsonSchema), z.record(z.string(), JsonSchema)]),
);

export const ImageRefSchema = z
  .object({
    id: z.string().min(1),
    mime: z.string().min(1),
    width: z.number().int().positive().optional(),
    height: z.number().int().positive().optional(),
    caption: z.string().optional(),
  })
  .strict();

export const ObservationSchema = z
  .object({ text: z.string().optional(), url: z.string().optional(), images: z.array(ImageRefSchema).optional() })
  .strict();

export const StepSchema = z
  .object({
    index: z.number().int().nonnegative(),
    observation: ObservationSchema.optional(),
    thought: z.string().optional(),
    action: z.string(),
    result: z.string().optional(),
    error: z.string().optional(),
  })
  .strict();

export const OutcomeSchema = z
  .object({ reward: z.number().min(0).max(1), success: z.boolean(), note: z.string().optional() })
  .strict();

export const PartialRecorderSchema = z
  .object({
    taskId: z.string().min(1),
    env: z.string().min(1),
    domain: z.string().optional(),
    instruction: z.string(),
    initial: ObservationSchema,
    meta: z.record(z.string(), JsonSchema),
  })
  .strict();

export const EpisodeRecorderSchema = PartialRecorderSchema.extend({
  steps: z.array(StepSchema),
  answer: z.string().optional(),
  outcome: OutcomeSchema,
}).strict();

export const MemoryPayloadSchema = z
  .object({ text: z.string(), images: z.array(ImageRefSchema), metadata: JsonSchema.optional() })
  .strict();
