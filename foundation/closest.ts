// "Did you mean …?" for a name someone mistyped (an option, a key of a spec, a file's path): the known name a few
// edits away.
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Edits (insert, delete, replace, swap two neighbours) from a to b, counted up to `cap` + 1. */
export function editDistance(a: string, b: string, cap = 3): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (prev2[j - 2] as number) + 1);
      row.push(d);
    }
    prev2 = prev;
    prev = row;
  }
  return prev[b.length] as number;
}

/** The known name closest to `name` when it is near enough to be what was meant (a third of its length in edits, at most 3). */
export function closest(name: string, known: readonly string[]): string | undefined {
  const cap = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const d = editDistance(name.toLowerCase(), k.toLowerCase(), cap);
    if (d <= cap && (!best || d < best.d)) best = { name: k, d };
  }
  return best?.name;
}

/** ' (did you mean "x"?)' or ''. */
export function didYouMean(name: string, known: readonly string[], quote = (s: string) => `"${s}"`): string {
  const near = closest(name, known);
  return near ? ` (did you mean ${quote(near)}?)` : '';
}

/** Entries of a folder looked at for a near miss: a folder holding more is not searched through. */
const MAX_ENTRIES = 5000;

function entries(dir: string): string[] {
  try {
    const all = readdirSync(dir);
    return all.length > MAX_ENTRIES ? [] : all;
  } catch {
    return [];
  }
}

/** The existing path `path` (absolute) may have meant: its last part a near miss, or its folder's too (two levels). */
function nearPath(path: string, depth: number): string | undefined {
  if (existsSync(path)) return path;
  const parent = dirname(path);
  if (depth === 0 || parent === path) return undefined;
  const folder = existsSync(parent) ? parent : nearPath(parent, depth - 1);
  if (!folder) return undefined;
  const name = basename(path);
  if (folder !== parent && existsSync(join(folder, name))) return join(folder, name);
  const near = closest(name, entries(folder));
  return near ? join(folder, near) : undefined;
}

/** ' (did you mean "./progs/bm25.ts"?)' for a path that does not exist, written as the user wrote theirs; or ''. */
export function didYouMeanPath(path: string, cwd = process.cwd()): string {
  const abs = resolve(cwd, path);
  const near = existsSync(abs) ? undefined : nearPath(abs, 2);
  if (!near) return '';
  let shown = isAbsolute(path) ? near : relative(cwd, near);
  if (!isAbsolute(path) && /^\.{1,2}[\\/]/.test(path) && !shown.startsWith('..')) shown = `.${sep}${shown}`;
  return ` (did you mean "${shown}"?)`;
}
