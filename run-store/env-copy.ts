// A run's copy of its environment's files, in `env/` of the run folder: a module's local files (every file it
// imports, packages excluded) with the package.json nearest to it, or the data files a data: environment names, up
// to ENV_COPY_MAX_BYTES in all (larger data is recorded by path and hash only: run.json's envSource). A module that
// was edited, moved or deleted since the run started is then resumed and exported from the code the run ran
// (engine/environment/registry.ts reopen), never from code the scores did not come from.
//   env/copy.json   what was copied from where (ENV_COPY_FORMAT)
//   env/files/...   the files, at their places relative to the folder they came from
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { z } from 'zod';
import type { EnvCopy, EnvFiles } from '../engine/environment/registry.ts';
import { readSmallFile } from '../foundation/small-file.ts';
import { resolveInside, writeInside } from '../foundation/safe-path.ts';

export const ENV_COPY_FORMAT = 'automemo-env-copy/1';
/** The most a run copies of its environment's files; more is kept by path and hash. */
export const ENV_COPY_MAX_BYTES = 64 * 2 ** 20;
const MAX_FILES = 10_000;

/** A path inside the copy: relative, no "..", no NUL. */
const RelPath = z
  .string()
  .min(1)
  .max(1000)
  .refine((p) => !p.includes('\0') && !p.startsWith('/') && !p.split(/[\\/]/).includes('..'), 'not a relative path inside the copy');

const CopySchema = z
  .object({
    format: z.literal(ENV_COPY_FORMAT),
    /** The folder the files were in when the run started. */
    origin: z.string().min(1).max(4096),
    /** What the environment names (the module's file, the data file or folder), relative to origin. */
    entry: z.union([RelPath, z.literal('.')]),
    /** False when the files were over the limit: then only their list is here. */
    copied: z.boolean(),
    bytes: z.number().int().nonnegative(),
    files: z.array(z.object({ path: RelPath, bytes: z.number().int().nonnegative() }).strict()).max(MAX_FILES),
  })
  .strict();
export type EnvCopyRecord = z.infer<typeof CopySchema>;

/** The nearest package.json above a file: how Node reads the files beside it ("type", "imports"). */
function nearestPackageJson(from: string): string | undefined {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Copies the environment's files into `runDir`/env (the entry is the module file or the data path the run names).
 * Returns what was recorded; nothing is written for an environment without files (a built-in).
 */
export function writeEnvCopy(runDir: string, files: EnvFiles | undefined, entry: string | undefined, kind: 'module' | 'data'): EnvCopyRecord | undefined {
  if (!files || !entry || files.paths.length === 0) return undefined;
  const list = files.paths.map((p) => ({ from: p, path: relative(files.root, p) }));
  if (kind === 'module') {
    const pkg = nearestPackageJson(entry);
    const inside = pkg ? relative(files.root, pkg) : undefined;
    // Above the copied folder, it still governs the files: it goes at the copy's top.
    if (pkg && inside && !list.some((f) => f.from === pkg)) list.push({ from: pkg, path: inside.startsWith('..') ? 'package.json' : inside });
  }
  const sized = list.map((f) => ({ ...f, bytes: statSync(f.from).size }));
  const bytes = sized.reduce((n, f) => n + f.bytes, 0);
  const copied = bytes <= ENV_COPY_MAX_BYTES;
  const rel = relative(files.root, entry);
  const record: EnvCopyRecord = {
    format: ENV_COPY_FORMAT,
    origin: files.root,
    entry: rel === '' ? '.' : rel.split(sep).join('/'),
    copied,
    bytes,
    files: sized.map((f) => ({ path: f.path.split(sep).join('/'), bytes: f.bytes })),
  };
  if (copied) for (const f of sized) writeInside(runDir, join('env', 'files', f.path), readFileSync(f.from));
  writeInside(runDir, join('env', 'copy.json'), `${JSON.stringify(record, null, 2)}\n`, 'exclusive');
  return record;
}

/** The run's copy as reopen() takes it, when the run has one with its files; undefined otherwise. */
export function readEnvCopy(runDir: string): EnvCopy | undefined {
  let text: string | undefined;
  try {
    text = readSmallFile(join(runDir, 'env', 'copy.json'), 4 * 2 ** 20);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const r = CopySchema.safeParse(raw);
  if (!r.success || !r.data.copied) return undefined;
  const path = r.data.entry === '.' ? resolveInside(runDir, join('env', 'files')) : resolveInside(runDir, join('env', 'files', r.data.entry));
  if (!existsSync(path)) return undefined;
  return { path, origin: r.data.origin, shown: `${basename(runDir)}/env` };
}
