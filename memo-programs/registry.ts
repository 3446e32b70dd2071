// Memo programs by name, for the CLI (`--program bm25`) and the search (`--seeds omni-simplemem`).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { didYouMean, didYouMeanPath } from '../foundation/closest.ts';
import { repoRoot } from '../foundation/paths.ts';

export interface NamedProgram {
  name: string;
  path: string;
  kind: 'seed' | 'baseline';
  description: string;
}

const dir = join(repoRoot, 'memo-programs');

export const PROGRAMS: NamedProgram[] = [
  { name: 'no-memory', path: join(dir, 'seeds', 'no-memory.ts'), kind: 'seed', description: 'remembers nothing (the search root)' },
  { name: 'omni-simplemem', path: join(dir, 'seeds', 'omni-simplemem'), kind: 'seed', description: 'Omni-SimpleMem: MAUs, hybrid dense+BM25, graph, pyramid' },
  { name: 'pipeline', path: join(dir, 'seeds', 'pipeline.ts'), kind: 'seed', description: 'a pipeline of lib stages: whole steps, BM25 + dense fused by rank, neighbours, compact packing' },
  { name: 'bm25', path: join(dir, 'baselines', 'bm25.ts'), kind: 'baseline', description: 'BM25 over steps' },
  { name: 'dense', path: join(dir, 'baselines', 'dense.ts'), kind: 'baseline', description: 'embeddings over steps (HNSW)' },
  { name: 'trajectory-retrieval', path: join(dir, 'seeds', 'trajectory-retrieval.ts'), kind: 'baseline', description: 'most similar past episodes as action lists' },
  { name: 'reasoning-bank', path: join(dir, 'baselines', 'reasoning-bank.ts'), kind: 'baseline', description: 'distilled strategies, lessons and facts' },
  { name: 'g-memory', path: join(dir, 'baselines', 'g-memory.ts'), kind: 'baseline', description: 'insight / task-record / trace tiers in a graph' },
];

export const BASELINES = ['no-memory', 'bm25', 'dense', 'trajectory-retrieval', 'reasoning-bank', 'g-memory', 'omni-simplemem'];

/** The standard designs a search screens at step 0 with `--seeds auto`: the baselines with memory and the pipeline seed. */
export const STANDARD_DESIGNS = [...BASELINES.filter((b) => b !== 'no-memory'), 'pipeline'];

/**
 * How each standard design is edited without first losing what it does: `pipeline` — its exact form, a program of
 * automemo/lib's stages whose payloads equal the design's (memo-programs/forms/, tested task by task in
 * test/memo-programs/forms.test.ts; the pipeline seed is its own form); `config` — the design itself, through its
 * exported `config` (Omni-SimpleMem: its ingestion, search, graph and pyramid have no stage-for-stage equivalent; see
 * forms/README.md).
 */
export interface DesignForm {
  design: string;
  edit: 'pipeline' | 'config';
  /** The program the edits start from: the form (a pipeline), or the design itself (config). */
  path: string;
}

export const DESIGN_FORMS: Record<string, DesignForm> = Object.fromEntries(
  (
    [
      ['bm25', 'pipeline', join(dir, 'forms', 'bm25.ts')],
      ['dense', 'pipeline', join(dir, 'forms', 'dense.ts')],
      ['trajectory-retrieval', 'pipeline', join(dir, 'forms', 'trajectory-retrieval.ts')],
      ['reasoning-bank', 'pipeline', join(dir, 'forms', 'reasoning-bank.ts')],
      ['g-memory', 'pipeline', join(dir, 'forms', 'g-memory.ts')],
      ['pipeline', 'pipeline', join(dir, 'seeds', 'pipeline.ts')],
      ['omni-simplemem', 'config', join(dir, 'seeds', 'omni-simplemem')],
    ] as const
  ).map(([design, edit, path]) => [design, { design, edit, path }]),
);

/** A standard design's editable form; undefined for other programs. */
export function formOf(design: string): DesignForm | undefined {
  return Object.hasOwn(DESIGN_FORMS, design) ? DESIGN_FORMS[design] : undefined;
}

/** A program name or a path to a program file or folder; unknown names are an error listing the known ones. */
export function resolveProgram(nameOrPath: string): { name: string; path: string } {
  const named = PROGRAMS.find((p) => p.name === nameOrPath);
  if (named) return { name: named.name, path: named.path };
  const path = resolve(nameOrPath);
  if (existsSync(path)) return { name: nameOrPath, path };
  const names = PROGRAMS.map((p) => p.name);
  // Written as a path (a folder in it, an extension): a near miss among the files there; else among the names.
  const near = /[\\/]|\.[cm]?[jt]sx?$/.test(nameOrPath) ? didYouMeanPath(nameOrPath.slice(0, 1000)) : didYouMean(nameOrPath.slice(0, 100), names);
  throw new Error(`no memo program "${nameOrPath.slice(0, 200)}"${near}: not a file or folder, and not one of ${names.join(', ')}`);
}
