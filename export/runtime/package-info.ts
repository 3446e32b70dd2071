// What an exported package says about itself, under "automemo" in its package.json: the run it came from, the
// node, its scores, the program, the environment and the memory it ships. Written by the export, read by the
// package at run time (and by anyone deciding whether to use it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const EXPORT_FORMAT = 'automemo-export/1';

export const PackageInfoSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  /** automemo's version at export. */
  version: z.string(),
  exportedAt: z.string(),
  formatKind: z.enum(['npm', 'mcp']),
  run: z.object({
    folder: z.string(),
    createdAt: z.string(),
    env: z.string(),
    seed: z.number().int(),
    /** The isolate's Math.random seed the run evaluated with (absent in packages before it: the run seed then). */
    sandboxSeed: z.number().int().optional(),
    selection: z.string(),
  }),
  node: z.object({
    id: z.string(),
    kind: z.string(),
    parent: z.string().nullable(),
    description: z.string().optional(),
    /** How it was chosen: the run's final winner, the LCB argmax, or by name. */
    chosenBy: z.enum(['final', 'lcb', 'node']),
  }),
  scores: z.object({
    /** Mean validation score, its number of evaluations, and the lower confidence bound. */
    validation: z.number().nullable(),
    n: z.number().int(),
    lcb: z.number().nullable(),
    test: z.number().nullable(),
    /**
     * The memory as shipped (every world's update episodes in one memory) on the same validation tasks, where the
     * search scored one memory per world; absent where there is one world (the shipped memory is the one scored).
     */
    shipped: z.object({ validation: z.number().nullable(), tasks: z.number().int(), note: z.string().optional() }).optional(),
  }),
  program: z.object({ hash: z.string(), entry: z.string(), bundle: z.string(), files: z.array(z.string()) }),
  env: z.object({ name: z.string(), reward: z.string(), mode: z.string(), budget: z.object({ maxChars: z.number().int(), maxImages: z.number().int() }) }),
  memory: z.object({
    dir: z.string(),
    episodes: z.number().int(),
    worlds: z.array(z.object({ id: z.string(), episodes: z.number().int() })),
    updateErrors: z.number().int(),
    models: z.object({ embed: z.string(), memo: z.string() }),
    /** Which episodes the memory holds, against how the search scored the program (absent in older packages). */
    scope: z.string().optional(),
  }),
  native: z.object({ mode: z.enum(['bundle', 'source']), platform: z.string(), arch: z.string(), abi: z.string() }),
});
/** What the package records about the run, the node and its scores (package.json "automemo"). */
export type PackageInfo = z.infer<typeof PackageInfoSchema>;

export function readPackageInfo(root: string): { name: string; version: string; info: PackageInfo } {
  const file = join(root, 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name: string; version: string; automemo?: unknown };
  const info = PackageInfoSchema.safeParse(pkg.automemo);
  if (!info.success) throw new Error(`${file}: no valid "automemo" field: ${z.prettifyError(info.error)}`);
  return { name: pkg.name, version: pkg.version, info: info.data };
}
