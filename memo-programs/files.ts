// A memo program as files: relative path → source; the entry is index.ts.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type ProgramFiles = Record<string, string>;

/**
 * sha256 of a program's sources (names and texts, trailing white space ignored): the same program wherever it was
 * written. The bundle's hash is not that: esbuild names symbols after their folder.
 */
export function sourceHash(files: ProgramFiles): string {
  const h = createHash('sha256');
  for (const name of Object.keys(files).sort()) h.update(`${name}\0${(files[name] ?? '').trimEnd()}\0`);
  return h.digest('hex');
}

/** Reads a program (file or folder) into files keyed by relative path; a single file becomes index.ts. */
export function readProgramFiles(path: string): ProgramFiles {
  if (statSync(path).isDirectory()) {
    return Object.fromEntries(
      readdirSync(path)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => [f, readFileSync(join(path, f), 'utf8')]),
    );
  }
  return { 'index.ts': readFileSync(path, 'utf8') };
}
