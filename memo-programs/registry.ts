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
