// Whether a run folder is this user's: `mark` holds a keyed digest (HMAC) of the run's run.json under this user's
// key (foundation/user-key.ts), written when the run is created. A run folder from anyone else — or one whose
// run.json was edited since — has no such mark, and cannot be given one without the key: `--resume` and `export`
// then run none of the environment code it names (a module, or the copy of one inside the folder) unless the user
// says so (api: trustRun). A marker anyone could write would prove nothing; a registry of this machine's runs would
// lose a folder that moves; a key of the user's follows the folder and cannot be forged.
import { timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { readSmallBytes, readSmallFile } from '../foundation/small-file.ts';
import { writeInside } from '../foundation/safe-path.ts';
import { userMac } from '../foundation/user-key.ts';

export const MARK_FILE = 'mark';
const PURPOSE = 'automemo run folder';
/** As RunFolder reads it. */
const MAX_RUN_JSON_BYTES = 1_000_000;

/** Marks the run as this user's (after run.json is written); undefined, or why it could not be (no user key). */
export function markRun(dir: string): string | undefined {
  try {
    const runJson = readSmallBytes(join(dir, 'run.json'), MAX_RUN_JSON_BYTES);
    if (!runJson) return 'it has no run.json';
    writeInside(dir, MARK_FILE, `${userMac(PURPOSE, runJson)}\n`, 'exclusive');
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Undefined when the run was made by this user's automemo (its mark is this user's), else why not, in words. */
export function runMarkProblem(dir: string): string | undefined {
  let mark: string | undefined;
  let runJson: Buffer | undefined;
  try {
    mark = readSmallFile(join(dir, MARK_FILE), 256)?.trim();
    runJson = readSmallBytes(join(dir, 'run.json'), MAX_RUN_JSON_BYTES);
  } catch (err) {
    return `cannot be checked as this user's (${(err as Error).message})`;
  }
  if (!runJson) return 'has no run.json';
  if (!mark) return "has no mark of this user's automemo (it was made by someone else, or before automemo marked its runs)";
  let mine: string;
  try {
    mine = userMac(PURPOSE, runJson);
  } catch (err) {
    return `cannot be checked as this user's (${(err as Error).message})`;
  }
  const a = Buffer.from(mark);
  const b = Buffer.from(mine);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return "was not made by this user's automemo (its mark is another user's or machine's, or its run.json changed since)";
  return undefined;
}
