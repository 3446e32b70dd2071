// Where a memory may live. A memory folder is replaced or removed only when it is one automemo wrote: its
// memory.json is our manifest and it holds nothing but the files a memory consists of, none a symbolic link. Any
// other non-empty folder is the user's and is refused, as are the file system's root, the home folder, a file
// and a link. Removing a memory deletes exactly its own files by name, never a folder's contents wholesale.
import { closeSync, constants, type Dirent, lstatSync, opendirSync, openSync, readSync, renameSync, rmdirSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, parse, resolve } from 'node:path';

/** The files at the top of a memory folder (see memory-dir.ts). */
export const MEMORY_FILES = ['memory.json', 'episodes.jsonl', 'kv.json', 'vectors.json', 'snapshot.json', 'images.json', 'embeddings.jsonl'] as const;
/** Its two sub-folders and the names the files in them have. */
export const MEMORY_SUBDIRS = { vectors: /^[1-9][0-9]{0,9}\.hnsw$/, images: /^img_[0-9a-f]{16}$/ } as const;
/** The format a memory's memory.json names. */
export const MEMORY_FORMAT = 'automemo-memory/1';

/** More entries than a memory folder could hold under the quotas (64 indices, images by the million is not a memory). */
const MAX_ENTRIES = 1_000_000;

/** A folder refused as the home of a memory: the message says which folder and why. */
export class MemoryDirError extends Error {
  override name = 'MemoryDirError';
}

export type MemoryDirState =
  | { kind: 'missing' }
  | { kind: 'empty' }
  /** A memory automemo wrote; `program` is its manifest's program hash. */
  | { kind: 'memory'; program: string };

/** The names in `dir`, at most MAX_ENTRIES of them (a folder of millions is refused before it is listed whole). */
function entries(dir: string): Dirent[] {
  const d = opendirSync(dir);
  const out: Dirent[] = [];
  try {
    for (let e = d.readSync(); e; e = d.readSync()) {
      if (out.length >= MAX_ENTRIES) throw new MemoryDirError(`${dir} holds more than ${MAX_ENTRIES} entries; it is not a memory automemo wrote`);
      out.push(e);
    }
  } finally {
    d.closeSync();
  }
  return out;
}

/** Names in `dir` that are not part of a memory (or are links, or of the wrong kind), as `dir/name`. */
function foreignEntries(dir: string): string[] {
  const foreign: string[] = [];
  for (const e of entries(dir)) {
    const sub = MEMORY_SUBDIRS[e.name as keyof typeof MEMORY_SUBDIRS];
    if (sub && e.isDirectory()) {
      for (const f of entries(join(dir, e.name))) if (!f.isFile() || !sub.test(f.name)) foreign.push(`${e.name}/${f.name}`);
    } else if (!(e.isFile() && (MEMORY_FILES as readonly string[]).includes(e.name))) {
      foreign.push(e.isSymbolicLink() ? `${e.name} (a symbolic link)` : !e.isFile() && !e.isDirectory() ? `${e.name} (not a regular file)` : e.name);
    }
  }
  return foreign;
}

/** The manifest's program hash when `file` is a memory.json automemo wrote; else undefined. Read with a small cap. */
function manifestProgram(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.alloc(1024 * 1024);
    const got = readSync(fd, buf, 0, buf.length, 0);
    if (got === buf.length) return undefined;
    const m = JSON.parse(buf.subarray(0, got).toString('utf8')) as { format?: unknown; program?: { hash?: unknown } };
    return m.format === MEMORY_FORMAT && typeof m.program?.hash === 'string' ? m.program.hash : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

const listed = (names: string[]) => `${names.slice(0, 5).join(', ')}${names.length > 5 ? ` and ${names.length - 5} more` : ''}`;

/**
 * What is at `dir` now, or a MemoryDirError when no memory may be written there: the root, the home folder, a file,
 * a link, or a folder holding anything but a memory automemo wrote.
 */
export function inspectMemoryDir(dir: string): MemoryDirState {
  const full = resolve(dir);
  if (full === parse(full).root) throw new MemoryDirError(`${dir} is the root of the file system; a memory needs a folder of its own`);
  if (full === resolve(homedir())) throw new MemoryDirError(`${dir} is the home folder; a memory needs a folder of its own`);
  let stat;
  try {
    stat = lstatSync(full);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw new MemoryDirError(`${dir} cannot be inspected (${(err as Error).message})`);
  }
  if (stat.isSymbolicLink()) throw new MemoryDirError(`${dir} is a symbolic link; give the folder it points to, or a new folder`);
  if (!stat.isDirectory()) throw new MemoryDirError(`${dir} is a file, not a folder; a memory needs a folder of its own`);
  const names = entries(full);
  if (names.length === 0) return { kind: 'empty' };
  const program = names.some((e) => e.name === 'memory.json' && e.isFile()) ? manifestProgram(join(full, 'memory.json')) : undefined;
  if (program === undefined) {
    throw new MemoryDirError(
      `${dir} is not empty and holds no memory automemo wrote (no automemo memory.json; it holds ${listed(names.map((e) => e.name))}); ` +
        'refusing to use it, so nothing in it is replaced: choose an empty or a new folder',
    );
  }
  const foreign = foreignEntries(full);
  if (foreign.length) {
    throw new MemoryDirError(`${dir} holds a memory but also files automemo did not write (${listed(foreign)}); refusing to replace it: move them out first`);
  }
  return { kind: 'memory', program };
}

const ignoreMissing = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
};

/**
 * Deletes the files a memory consists of from `dir`, by name, then its sub-folders and `dir` when they are empty.
 * Anything else in it stays (and so does `dir`): this never deletes what automemo did not write.
 */
export function removeMemoryFiles(dir: string): void {
  for (const name of MEMORY_FILES) ignoreMissing(() => unlinkSync(join(dir, name)));
  for (const [sub, pattern] of Object.entries(MEMORY_SUBDIRS)) {
    const folder = join(dir, sub);
    let list: Dirent[];
    try {
      if (!lstatSync(folder).isDirectory()) continue;
      list = entries(folder);
    } catch {
      continue;
    }
    for (const f of list) if (f.isFile() && pattern.test(f.name)) ignoreMissing(() => unlinkSync(join(folder, f.name)));
    try {
      rmdirSync(folder);
    } catch {
      // Something else is in it: it stays.
    }
  }
  try {
    rmdirSync(dir);
  } catch {
    // Not empty: what is left is not ours to delete.
  }
}

/** Sibling names a save uses for its new memory and for the one it replaces. */
export const siblingPrefix = (dir: string, kind: 'saving' | 'old') => `.${basename(resolve(dir))}.${kind}-`;

/**
 * A save swaps the old memory out and the new one in with two renames; a process stopped between them leaves
 * `dir` missing and the old memory beside it. Puts that memory back (it is ours: checked like any memory folder)
 * and says so; undefined when there was nothing to recover.
 */
export function recoverInterruptedSave(dir: string): string | undefined {
  const full = resolve(dir);
  const parent = dirname(full);
  const prefix = siblingPrefix(full, 'old');
  let candidates: string[];
  try {
    candidates = entries(parent)
      .filter((e) => e.isDirectory() && e.name.startsWith(prefix))
      .map((e) => e.name);
  } catch {
    return undefined;
  }
  for (const name of candidates.sort()) {
    const old = join(parent, name);
    try {
      if (inspectMemoryDir(old).kind !== 'memory') continue;
      renameSync(old, full);
      return `${dir} was missing after an interrupted save; the memory saved before it (${name}) was put back`;
    } catch {
      // Not ours, or another process got there first: leave it.
    }
  }
  return undefined;
}
