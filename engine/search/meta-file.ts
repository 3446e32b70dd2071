// programs/<node>/meta.json: what the meta agent said when it wrote a child — its description and edits, how many
// quick examinations it took, and its feedback (per-cluster findings, the proposal). Written by the search, read by
// the viewer and the report; the file is for analysts and nothing replays it.
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { EditsSchema } from '../meta/types.ts';

export const MetaFileSchema = z
  .object({
    node: z.string(),
    parent: z.string(),
    step: z.number().int(),
    agent: z.enum(['model', 'offline']),
    description: z.string(),
    edits: EditsSchema.optional(),
    attempts: z.number().int().min(1),
    feedback: z
      .object({
        agent: z.enum(['model', 'offline']),
        clusters: z.array(
          z.object({
            scenario: z.string(),
            tasks: z.number().optional(),
            meanReward: z.number().optional(),
            summary: z.string(),
            analysis: z.record(z.string(), z.unknown()).optional(),
          }),
        ),
        proposal: z.string(),
        synthesis: z.object({ summary: z.string(), changes: z.array(z.object({ change: z.string(), why: z.string().optional(), clusters: z.array(z.string()).optional() })) }).optional(),
        findings: z.array(z.object({ rule: z.string(), detail: z.string(), direction: z.string(), weight: z.number() })).optional(),
        chosen: z.string().optional(),
      })
      .optional(),
  });
export type MetaFile = z.infer<typeof MetaFileSchema>;

/** The meta.json at `path`, or undefined when there is none; a file that does not parse is an error naming it. */
export function readMetaFile(path: string): MetaFile | undefined {
  if (!existsSync(path)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`${path} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  const parsed = MetaFileSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${path} is not a meta file: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
