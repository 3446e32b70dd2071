// A folder claimed by one process at a time: `lock` inside it holds the pid of the process writing there. A second
// writer (a resume while the search runs, a second `eval` into the same --out) would interleave its files with the
// first's, so it is refused, naming the holder; a lock left by a process that is gone is taken over.
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PathOutsideError, writeInside } from '../foundation/safe-path.ts';
import { readSmallFile } from '../foundation/small-file.ts';

export const LOCK_FILE = 'lock';

/** Whether a process (say, the one holding a lock) still lives. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Folders a call in this process holds: the pid in their lock cannot tell two calls here apart. */
const heldHere = new Set<string>();

/**
 * Claims `dir` (made if missing) for this process; `what` names the kind of writer in a refusal ("search",
 * "eval or baselines"). Returns the release; the lock also goes when the process exits.
 */
export function lockFolder(dir: string, what: string): () => void {
  mkdirSync(dir, { recursive: true });
  const key = realpathSync(dir);
  if (heldHere.has(key)) throw new Error(`${dir} is in use by another ${what} in this process; wait for it to finish`);
  const lockPath = join(dir, LOCK_FILE);
  try {
    writeInside(dir, LOCK_FILE, String(process.pid), 'exclusive');
  } catch (err) {
    if (err instanceof PathOutsideError) throw err;
    const holder = Number(readSmallFile(lockPath, 64)?.trim());
    if (holder && holder !== process.pid && alive(holder)) {
      throw new Error(`${dir} is in use by process ${holder}; stop it first, or wait for it to finish`, { cause: err });
    }
    writeInside(dir, LOCK_FILE, String(process.pid));
  }
  heldHere.add(key);
  const onExit = () => {
    heldHere.delete(key);
    try {
      if (readSmallFile(lockPath, 64)?.trim() === String(process.pid)) rmSync(lockPath);
    } catch {
      // already gone
    }
  };
  process.once('exit', onExit);
  // Released by the caller, the exit hook goes too: a library user's long process makes many calls.
  return () => {
    process.removeListener('exit', onExit);
    onExit();
  };
}
