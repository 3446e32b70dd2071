// A study folder: study.json (engine/study/study-file.ts) and, per environment, its floor's evidence, its searches'
// run folders and its transfers' evidence; the tables and the page rendered from study.json beside it. study.json is
// replaced whole (written beside, then renamed), so a kill at any moment leaves the last complete record; it is read
// back through its schema, bounded, so a folder someone sent is refused plainly when it is not a study.
import { existsSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { readSmallFile } from '../foundation/small-file.ts';
import { resolveInside, writeInside } from '../foundation/safe-path.ts';
import { redactCredentials } from '../foundation/redact.ts';
import { MAX_STUDY_BYTES, STUDY_FORMAT, type StudyFile, StudyFileSchema } from '../engine/study/study-file.ts';
import { RunFolder } from './run-folder.ts';

export const STUDY_JSON = 'study.json';

/** Why a folder is not a study, in words a user can act on. */
export class NotAStudyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotAStudyError';
  }
}

export class StudyFolder {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  /** A path inside the study folder, proven inside (no link leads out). */
  inside(rel: string): string {
    return existsSync(this.dir) ? resolveInside(this.dir, rel) : join(this.dir, rel);
  }

  exists(): boolean {
    return existsSync(join(this.dir, STUDY_JSON));
  }

  /** Refuses a folder a new study cannot start in: a file, one holding a study (resume it) or anything else. */
  checkNew(): void {
    const st = statSync(this.dir, { throwIfNoEntry: false });
    if (!st) return;
    if (!st.isDirectory()) throw new Error(`${this.dir} is not a folder: give a new or empty folder for the study`);
    if (this.exists()) throw new Error(`${this.dir} already holds a study; use --resume to continue it, or choose another --out`);
    if (readdirSync(this.dir).some((n) => n !== 'lock')) throw new Error(`${this.dir} exists and is not empty, and holds no study: choose another --out, or empty it`);
  }

  /** study.json, validated: a folder without one, or with one that is not a study, is a NotAStudyError naming why. */
  read(): StudyFile {
    const path = join(this.dir, STUDY_JSON);
    if (!existsSync(this.dir)) throw new NotAStudyError(`${this.dir} does not exist`);
    if (!this.exists()) throw new NotAStudyError(`${this.dir} is not a study folder: it has no ${STUDY_JSON}`);
    let raw: unknown;
    try {
      const text = readSmallFile(resolveInside(this.dir, STUDY_JSON), MAX_STUDY_BYTES);
      if (text === undefined) throw new Error(`larger than ${MAX_STUDY_BYTES / 2 ** 20} MB`);
      raw = JSON.parse(text);
    } catch (err) {
      throw new NotAStudyError(`${path} cannot be read as JSON: ${(err as Error).message.split('\n')[0]}`);
    }
    if ((raw as { format?: unknown } | null)?.format !== STUDY_FORMAT)
      throw new NotAStudyError(`${path} is not a study (its format is not ${STUDY_FORMAT})`);
    const parsed = StudyFileSchema.safeParse(raw);
    if (!parsed.success) throw new NotAStudyError(`${path} is not a valid study: ${z.prettifyError(parsed.error).slice(0, 2000)}`);
    return parsed.data;
  }

  /** Replaces study.json whole: written beside and renamed, so a reader (or a kill) never sees half of it. */
  write(study: StudyFile): void {
    const checked = StudyFileSchema.parse(study);
    const text = `${redactCredentials(JSON.stringify(checked, null, 1))}\n`;
    const tmp = `${STUDY_JSON}.${process.pid}.tmp`;
    writeInside(this.dir, tmp, text);
    renameSync(this.inside(tmp), this.inside(STUDY_JSON));
  }

  /** Writes one rendered output (study.md, study.csv, …) beside study.json. */
  writeOutput(name: string, text: string): string {
    return writeInside(this.dir, name, text);
  }

  /**
   * Claims the folder for this process, with the run folder's lock (the same file, the same rules): a second study on
   * it, or a resume while it runs, is refused; a lock left by a process that is gone is taken over.
   */
  lock(): () => void {
    return new RunFolder(this.dir).lock();
  }
}

/** Whether a folder holds a study (what `automemo view` opens as one). */
export function isStudyFolder(dir: string): boolean {
  return existsSync(join(dir, STUDY_JSON));
}
