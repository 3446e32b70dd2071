// The shape of a recorded episode (the contract's EpisodeRecorder), for checking what comes back from a store
// anyone could have edited before it reaches a program.
import { z } from 'zod';
import type { EpisodeRecorder } from '../../memo-programs/contract.ts';
import { ImageRefSchema, JsonSchema } from '../../sandbox/schemas.ts';

const text = z.string().max(8_000_000);

const ObservationSchema = z
  .object({ text: text.optional(), url: z.string().max(10_000).optional(), images: z.array(ImageRefSchema).max(1000).optional() })
  .strict();

const StepSchema = z
  .object({
    index: z.number().int().nonnegative(),
    observation: ObservationSchema.optional(),
    thought: text.optional(),
    action: text,
    result: text.optional(),
    error: text.optional(),
  })
  .strict();

export const EpisodeRecorderSchema = z
  .object({
    taskId: z.string().max(1000),
    env: z.string().max(200),
    domain: z.string().max(1000).optional(),
    instruction: text,
    initial: ObservationSchema,
    steps: z.array(StepSchema).max(100_000),
    answer: text.optional(),
    outcome: z.object({ reward: z.number().min(0).max(1), success: z.boolean(), note: text.optional() }).strict(),
    meta: z.record(z.string(), JsonSchema),
  })
  .strict();

/** The episode, or the first problems found (a deeply nested tampered value is a problem too, not a crash). */
export function parseEpisode(value: unknown): { ok: true; episode: EpisodeRecorder } | { ok: false; problem: string } {
  try {
    const r = EpisodeRecorderSchema.safeParse(value);
    if (r.success) return { ok: true, episode: r.data as EpisodeRecorder };
    return { ok: false, problem: r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
  } catch (err) {
    return { ok: false, problem: (err as Error).message };
  }
}
