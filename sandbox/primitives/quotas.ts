// Limits on what one program instance may ask of the host. Each is enforced where the work happens, and each
// refusal says which quota it hit and how to change it.
import { z } from 'zod';

export const QuotasSchema = z
  .object({
    /** Texts per embed() call. */
    embedBatch: z.number().int().positive().default(512),
    /** Characters per embedded text; longer texts are rejected, not silently cut. */
    embedTextChars: z.number().int().positive().default(32_000),
    /**
     * Characters of embed() calls being embedded at once (their texts are held in the host until their vectors are
     * back): one call at the documented maximum, 512 × 32,000. A call past it is refused before any work, with the
     * advice to await earlier calls (64 un-awaited maximal calls held ~2.5 GB of the host's memory).
     */
    embedCharsInFlight: z.number().int().positive().default(512 * 32_000),
    /** embed() calls over the instance's life. */
    embedCalls: z.number().int().positive().default(200_000),
    vectorHandles: z.number().int().positive().default(64),
    /** Host memory for all vector indices (elements × (4·dim + graph links)). */
    vectorBytes: z.number().int().positive().default(1024 * 1024 * 1024),
    vectorDimMax: z.number().int().positive().default(4096),
    kvBytes: z.number().int().positive().default(128 * 1024 * 1024),
    kvKeyChars: z.number().int().positive().default(1024),
    llmCalls: z.number().int().positive().default(10_000),
    llmPromptChars: z.number().int().positive().default(400_000),
    imageCalls: z.number().int().positive().default(20_000),
    logBytes: z.number().int().positive().default(1024 * 1024),
  })
  .strict();

export type Quotas = z.infer<typeof QuotasSchema>;
export const DEFAULT_QUOTAS: Quotas = QuotasSchema.parse({});

/** Raised by a primitive when a quota would be exceeded; the message reaches the program and the report. */
export class QuotaError extends Error {
  constructor(quota: keyof Quotas, detail: string) {
    super(`quota ${quota} exceeded: ${detail}`);
    this.name = 'QuotaError';
  }
}
