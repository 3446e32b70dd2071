// The files a definition's option names (a data file, or a folder's data files: EnvironmentDefinition.dataFiles),
// fingerprinted by name and content (where they sit is left out, so a copy elsewhere hashes the same). A run
// records the fingerprint and keeps a copy of the files (run-store/env-copy.ts), so it can tell when its
// data changed or moved and carry on from what it started with.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

/** Files an option may name in all: more is not a dataset. */
const MAX_FILES = 10_000;
/** Bytes they may hold in all (a dataset's files are read at most 512 MiB each: envs/data/format.ts). */
const MAX_BYTES = 64 * 2 ** 30;

export interface DataFiles {
  hash: string;
  /** The deepest folder holding every file. */
  root: string;
  /** Absolute, sorted. */
  paths: string[];
  bytes: number;
}

/**
 * Streams a file into the hash (a data file may be hundreds of megabytes); returns its size. Only a plain file, and
 * only the size it had when opened: a pipe or a link to a device (a run folder may name any path) would never end.
 */
function hashInto(h: ReturnType<typeof createHash>, path: string, room: number): number {
  // Non-blocking: opening a pipe would wait for a writer.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const buf = Buffer.alloc(1 << 20);
  let total = 0;
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`data file ${path} is not a plain file`);
    if (st.size > room) throw new Error(`the data's files hold over ${MAX_BYTES / 2 ** 30} GiB`);
    for (let n = 1; n > 0 && total < st.size; total += n) {
      n = readSync(fd, buf, 0, Math.min(buf.length, st.size - total), null);
      h.update(buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return total;
}

export function hashDataFiles(files: string[]): DataFiles {
  if (files.length > MAX_FILES) throw new Error(`the data names ${files.length} files; at most ${MAX_FILES}`);
  const paths = files.map((p) => resolve(p)).sort();
  const root = paths.reduce((common, p) => {
    while (relative(common, p).startsWith('..')) common = dirname(common);
    return common;
  }, dirname(paths[0] ?? '/'));
  const h = createHash('sha256');
  let bytes = 0;
  for (const p of paths) {
    h.update(relative(root, p)).update('\u0000');
    bytes += hashInto(h, p, MAX_BYTES - bytes);
    h.update('\u0000');
  }
  return { hash: h.digest('hex').slice(0, 16), root, paths, bytes };
}
