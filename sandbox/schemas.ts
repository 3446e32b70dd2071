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

export const MemoryPayloadSchema = z
  .object({ text: z.string(), images: z.array(ImageRefSchema), metadata: JsonSchema.optional() })
  .strict();
