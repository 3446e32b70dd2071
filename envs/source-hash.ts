// A hash of a built-in environment's own source folder: part of its update episodes' key, so a changed generator,
// tool, site or agent collects its episodes again. Computed once per folder and process.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const hashes = new Map<string, string>();

/** 16 hex digits over every .ts and .txt file under `dir`, by name and content, in a fixed order. */
export function folderSourceHash(dir: string): string {
  let hash = hashes.get(dir);
  if (!hash) {
    const h = createHash('sha256');
    const walk = (d: string) => {
      for (const name of readdirSync(d).sort()) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.(ts|txt)$/.test(name)) h.update(name).update(readFileSync(p));
      }
    };
    walk(dir);
    hash = h.digest('hex').slice(0, 16);
    hashes.set(dir, hash);
  }
  return hash;
}
