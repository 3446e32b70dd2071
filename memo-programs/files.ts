// A memo program as files: relative path → source; the entry is index.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type ProgramFiles = Record<string, string>;

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
