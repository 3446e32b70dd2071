// Names and paths that come from outside — a seed given on the command line, a journal anyone can edit, a file name
// a model wrote — never reach the file system raw. A name is a safe name (one path segment, no dots in front, no
// separators); a path is resolved inside a folder we own and refused when it would leave it, by `..`, an absolute
// path, a NUL, or a symbolic link pointing out. Every write into a folder we own goes through writeInside/mkdirInside.
import { closeSync, constants, lstatSync, mkdirSync, openSync, realpathSync, writeSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve, sep } from 'node:path';
import { z } from 'zod';

/** One path segment: a letter or digit, then letters, digits, `.`, `_`, `-`; at most 64 characters. */
export const SAFE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i;
const SAFE_NAME_RULE = 'letters, digits, ".", "_" and "-", starting with a letter or digit, at most 64 characters';

export const SafeNameSchema = z.string().regex(SAFE_NAME, `not a safe name (${SAFE_NAME_RULE})`);

/** A relative path of safe names joined by "/" (at most 8 of them): what a run folder records for its own files. */
export const SafeRelPathSchema = z
  .string()
  .max(600)
  .refine((p) => isSafeRelPath(p), { message: `not a safe relative path (up to 8 names joined by "/", each ${SAFE_NAME_RULE})` });

export function isSafeName(name: string): boolean {
  return SAFE_NAME.test(name);
}

export function isSafeRelPath(path: string): boolean {
  const parts = path.split('/');
  return parts.length <= 8 && parts.every(isSafeName);
}

/** A safe name made from any text (a path's last segment, say): other characters become "-"; empty gives `fallback`. */
export function toSafeName(raw: string, fallback: string): string {
  const cleaned = raw
    .slice(0, 1000)
    .replace(/[^a-z0-9._-]+|\.{2,}/gi, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[^a-z0-9]+/i, '')
    .slice(0, 64)
    .replace(/[-.]+$/, '');
  return cleaned || fallback;
}

/** `name`, else `name-2`, `name-3`, … : the first that is not taken, cut so it stays a safe name. */
export function uniqueName(name: string, taken: (candidate: string) => boolean): string {
  if (!taken(name)) return name;
  for (let i = 2; ; i++) {
    const suffix = `-${i}`;
    const candidate = `${name.slice(0, 64 - suffix.length)}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
}

/** A path that would leave the folder it was meant for; the message says which path and why. */
export class PathOutsideError extends Error {
  override name = 'PathOutsideError';
}

/** Why `rel` cannot be a path inside a folder, judged on its text alone; undefined when it can be. */
function textualProblem(rel: string): string | undefined {
  if (typeof rel !== 'string' || rel === '') return 'is empty';
  if (rel.includes('\0')) return 'holds a NUL character';
  if (isAbsolute(rel) || /^[a-z]:/i.test(rel) || rel.startsWith('\\')) return 'is an absolute path';
  if (rel.split(/[\\/]/).includes('..')) return 'climbs out with ".."';
  return undefined;
}

/** `base` with one separator at its end ("/" stays "/"). */
const withSep = (base: string) => (base.endsWith(sep) ? base : base + sep);

/** The deepest path from `full` upwards that exists (a dangling link counts as existing). */
function deepestExisting(full: string, base: string): string {
  let p = full;
  while (p !== base && p.startsWith(withSep(base))) {
    try {
      lstatSync(p);
      return p;
    } catch {
      p = dirname(p);
    }
  }
  return base;
}

const within = (p: string, base: string) => p === base || p.startsWith(withSep(base));

/**
 * The absolute path of `rel` inside `root` (which must exist), whether or not it exists yet. Throws PathOutsideError
 * when it would leave `root`: by its text, or because the part of it that exists goes through a symbolic link out.
 */
export function resolveInside(root: string, rel: string): string {
  const problem = textualProblem(rel);
  if (problem) throw new PathOutsideError(`the path ${JSON.stringify(String(rel).slice(0, 200))} ${problem}; only paths inside ${root} are allowed`);
  const base = realpathSync(root);
  const full = resolve(base, rel);
  if (!within(full, base)) throw new PathOutsideError(`the path ${JSON.stringify(rel.slice(0, 200))} leads outside ${root}`);
  const existing = deepestExisting(full, base);
  let real: string;
  try {
    real = realpathSync(existing);
  } catch {
    throw new PathOutsideError(`the path ${JSON.stringify(rel.slice(0, 200))} goes through a symbolic link that points nowhere; refused`);
  }
  if (!within(real, base)) throw new PathOutsideError(`the path ${JSON.stringify(rel.slice(0, 200))} goes through a symbolic link that leads outside ${root}; refused`);
  return full;
}

/** The real path of `rel` inside `root` when it exists there; null when it is missing or would leave `root`. */
export function insideRoot(root: string, rel: string): string | null {
  let full: string;
  try {
    full = resolveInside(root, rel);
    return realpathSync(full);
  } catch {
    return null;
  }
}

/** Creates the folder `rel` inside `root` (and its parents), proven inside first; returns its absolute path. */
export function mkdirInside(root: string, rel: string): string {
  const full = resolveInside(root, rel);
  mkdirSync(full, { recursive: true });
  // A link swapped in while the folders were made would show now.
  resolveInside(root, rel);
  return full;
}

/**
 * Writes a file at `rel` inside `root` (making its folder), proven inside first. The file itself is opened without
 * following a symbolic link, so a link planted where the file goes is refused rather than written through.
 * `append` adds to the end instead of replacing; `exclusive` refuses a file that is already there.
 */
export function writeInside(root: string, rel: string, data: string | Uint8Array, mode: 'replace' | 'append' | 'exclusive' = 'replace'): string {
  const full = resolveInside(root, rel);
  const parent = dirname(full);
  if (dirname(rel) !== '.') mkdirInside(root, dirname(rel));
  const how = mode === 'append' ? constants.O_APPEND : mode === 'exclusive' ? constants.O_EXCL : constants.O_TRUNC;
  let fd: number;
  try {
    fd = openSync(full, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | how, 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new PathOutsideError(`${basename(full)} in ${parent} is a symbolic link; refused to write through it`);
    throw err;
  }
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
  } finally {
    closeSync(fd);
  }
  return full;
}
