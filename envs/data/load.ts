// Reads a dataset (a file, or a folder of .jsonl / .json files) within bounds: a line is parsed only when it is
// under the line cap, each problem is a note "file:line: what is wrong" and the rest loads; a dataset with nothing
// usable is an error naming it. Duplicate ids and evidence naming unknown turns are reported, never trusted.
import { createHash } from 'node:crypto';
import { lstatSync, opendirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { z } from 'zod';
import { readLines, sizeText } from '../../foundation/bounded-lines.ts';
import { PathOutsideError, resolveInside } from '../../foundation/safe-path.ts';
import { readSmallFile } from '../../foundation/small-file.ts';
import { isInside } from '../../foundation/paths.ts';
import { issueText } from '../../foundation/unknown-keys.ts';
import { ContentError } from '../../foundation/usage-error.ts';
import { DocumentSchema, type Header, HeaderSchema, LIMITS, type WorldRecord, WorldSchema } from './format.ts';
import { parseTime } from './time.ts';

export interface LoadedWorld extends WorldRecord {
  /** The folder image paths are relative to. */
  baseDir: string;
  /** Session times, ms since epoch, in order. */
  times: number[];
  /** When each question that says so is asked, ms since epoch, by question id. */
  asked: Map<string, number>;
  /** Where the world came from, for messages. */
  where: string;
}

/**
 * A world none of which loaded: its id (when it could be read), its questions, where, and why. A line or file that
 * could not be read at all (not JSON, over the line cap, neither header nor world, the rest of a file over its cap)
 * is one too, with neither id nor questions: it may have held a world.
 */
export interface LeftOutWorld {
  id?: string;
  /** Undefined: the line was not read (what it held is not known). */
  questions?: number;
  where: string;
  why: string;
}

export interface Dataset {
  header: Header;
  worlds: LoadedWorld[];
  files: { file: string; sha256: string }[];
  /** Problems that did not stop loading. */
  warnings: string[];
  /** Worlds a problem left out whole (their problems are among the warnings too). */
  leftOut: LeftOutWorld[];
}

type Limits = typeof LIMITS;

const MAX_WARNINGS = 200;

// Messages quote no text of the file they are about: they reach other machines (a worker's refusal goes back to
// whoever put the job on the queue), and a path given as a dataset may be any file — say, one holding a password.

/** Where JSON.parse stopped ("at character 12"), never the text around it, which Node quotes. */
function jsonErrorPlace(err: unknown): string {
  const at = /position (\d+)/.exec(String((err as Error)?.message))?.[1];
  return at === undefined ? '' : ` (at character ${Number(at) + 1})`;
}

/** A line's "type" as a message may show it: by its kind only. */
function kindOf(type: unknown): string {
  if (type === undefined) return 'no type';
  return typeof type === 'string' ? 'another type' : `a type that is a ${type === null ? 'null' : typeof type}`;
}

function issues(error: z.ZodError, schema: unknown): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${issueText(i, schema)}`)
    .join('; ');
}

/** Entries a dataset folder may hold in all (data files or not): past this the folder is refused unread. */
const MAX_FOLDER_ENTRIES = 100_000;

/** The data files a dataset path names: the file, or the folder's .jsonl / .json files, sorted. */
export function dataFiles(path: string, limits: Limits): string[] {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) throw new Error(`dataset ${path} does not exist`);
  // A file given through a link is read where it lies: its folder is the one its images must stay inside.
  if (st.isFile()) return [realpathSync(path)];
  if (!st.isDirectory()) throw new Error(`dataset ${path} is neither a file nor a folder`);
  const names: string[] = [];
  const folder = opendirSync(path);
  try {
    let seen = 0;
    for (let e = folder.readSync(); e; e = folder.readSync()) {
      if (++seen > MAX_FOLDER_ENTRIES) throw new Error(`dataset folder ${path} holds more than ${MAX_FOLDER_ENTRIES} entries; give a folder of data files`);
      if (/\.(jsonl|json)$/.test(e.name)) names.push(e.name);
    }
  } finally {
    folder.closeSync();
  }
  names.sort();
  if (names.length === 0) throw new Error(`dataset folder ${path} holds no .jsonl or .json file`);
  if (names.length > limits.files) throw new Error(`dataset folder ${path} holds ${names.length} data files; at most ${limits.files}`);
  const folderReal = realpathSync(path);
  return names.map((n) => {
    const file = join(path, n);
    // Only plain files of the folder: a pipe, a link to a device or a link out (a run folder may name any folder)
    // would block the reader, never end, or read what the dataset is not.
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      throw new Error(`dataset folder ${path}: ${n} is a link to nothing`);
    }
    if (!isInside(real, folderReal)) throw new Error(`dataset folder ${path}: ${n} is a link to ${real}, outside the folder`);
    if (!statSync(real).isFile()) throw new Error(`dataset folder ${path}: ${n} is not a plain file`);
    return file;
  });
}

/** Why a turn's image cannot be used (outside the data file's folder, missing, too big, too many), or undefined. */
function imageProblem(baseDir: string, path: string, seen: { count: number; bytes: number }, limits: Limits): string | undefined {
  let full: string;
  try {
    full = resolveInside(baseDir, path);
  } catch (err) {
    return err instanceof PathOutsideError ? `is refused: ${err.message}` : `cannot be read: ${(err as Error).message}`;
  }
  const st = lstatSync(full, { throwIfNoEntry: false });
  if (!st?.isFile()) return st ? 'is not a plain file' : 'does not exist';
  if (st.size > limits.imageBytes) return `is ${sizeText(st.size)}, over the ${sizeText(limits.imageBytes)} an image may have`;
  if (seen.count + 1 > limits.images) return `is one image more than the ${limits.images} a dataset may bring`;
  if (seen.bytes + st.size > limits.imagesTotalBytes) return `would bring the dataset's images over ${sizeText(limits.imagesTotalBytes)}`;
  seen.count++;
  seen.bytes += st.size;
  return undefined;
}

/** Why a question's choices cannot be told apart (one reads as nothing, two read the same), or undefined. */
function choicesProblem(choices: string[]): string | undefined {
  const seen = new Map<string, number>();
  for (const [i, c] of choices.entries()) {
    const read = c.trim().replace(/\s+/g, ' ').toLowerCase();
    if (!read) return `choice ${i + 1} is empty`;
    const first = seen.get(read);
    if (first !== undefined) return `choices ${first + 1} and ${i + 1} read the same (${JSON.stringify(c.slice(0, 100))})`;
    seen.set(read, i);
  }
  return undefined;
}

/** A time as a message may show it (a string cut at 50 characters). */
const shownTime = (t: string | number) => JSON.stringify(typeof t === 'string' ? t.slice(0, 50) : t);

/** What one read of a dataset gathers, line by line: the header, the worlds, the ids seen and every problem. */
class DatasetReader {
  header: Header | undefined;
  readonly worlds: LoadedWorld[] = [];
  readonly warnings: string[] = [];
  readonly leftOut: LeftOutWorld[] = [];
  readonly files: Dataset['files'] = [];
  private readonly worldIds = new Set<string>();
  private readonly questionIds = new Set<string>();
  private readonly images = { count: 0, bytes: 0 };

  constructor(private readonly limits: Limits) {}

  warn(w: string): void {
    if (this.warnings.length < MAX_WARNINGS) this.warnings.push(w);
    else if (this.warnings.length === MAX_WARNINGS) this.warnings.push('… more problems not listed');
  }

  takeHeader(raw: unknown, where: string): void {
    const r = HeaderSchema.safeParse(raw);
    if (!r.success) return this.warn(`${where}: not a usable dataset header: ${issues(r.error, HeaderSchema)}`);
    if (this.header) return this.warn(`${where}: a second dataset header; the first is kept`);
    this.header = r.data;
  }

  takeWorld(raw: unknown, where: string, baseDir: string): void {
    if (this.worlds.length >= this.limits.worlds) return this.drop(raw, where, `more than ${this.limits.worlds} worlds; the rest is left out`);
    const r = WorldSchema.safeParse(raw);
    if (!r.success) return this.drop(raw, where, `not a usable world: ${issues(r.error, WorldSchema)}`);
    const w = r.data;
    if (this.worldIds.has(w.id)) return this.drop(raw, where, `world "${w.id}" appears twice; the first is kept`);
    const times = this.sessionTimes(w);
    if (typeof times === 'string') return this.drop(raw, where, times);
    const turnIds = this.turns(w, where, baseDir);
    const { questions, asked } = this.questions(w, where, turnIds);
    this.worldIds.add(w.id);
    this.worlds.push({ ...w, questions, baseDir, times, asked, where });
  }

  /** A world none of which loads: warned as file:line, and counted for the summary line (and --strict). */
  private drop(raw: unknown, where: string, why: string): void {
    this.warn(`${where}: ${why}`);
    const r = raw && typeof raw === 'object' ? (raw as { id?: unknown; questions?: unknown }) : {};
    const id = typeof r.id === 'string' ? r.id.slice(0, 200) : undefined;
    this.leftOut.push({ ...(id !== undefined ? { id } : {}), questions: Array.isArray(r.questions) ? r.questions.length : 0, where, why });
  }

  /** A line or file that could not be read at all: warned as file:line, and counted as left out (--strict refuses it). */
  unread(where: string, why: string): void {
    this.warn(`${where}: ${why}`);
    this.leftOut.push({ where, why });
  }

  /** The sessions' times in ms, or why the world cannot be used (one session without a usable time). */
  private sessionTimes(w: WorldRecord): number[] | string {
    const times: number[] = [];
    for (const [i, s] of w.sessions.entries()) {
      const t = parseTime(s.time);
      if (t === 'not a date') return `world "${w.id}", session ${i + 1}: time ${shownTime(s.time)} is not a date; the world is left out`;
      if (t === 'out of range') return `world "${w.id}", session ${i + 1}: time ${shownTime(s.time)} is outside the years 1 to 9999; the world is left out`;
      times.push(t);
    }
    return times;
  }

  /** The world's turn ids; a repeated id and an unusable image are reported (the image is left out). */
  private turns(w: WorldRecord, where: string, baseDir: string): Set<string> {
    const turnIds = new Set<string>();
    for (const s of w.sessions) {
      for (const t of s.turns) {
        if (turnIds.has(t.id)) this.warn(`${where}: world "${w.id}": turn id "${t.id}" appears twice; evidence naming it counts the first`);
        turnIds.add(t.id);
        if (!t.image) continue;
        const problem = imageProblem(baseDir, t.image.path, this.images, this.limits);
        if (problem) {
          this.warn(`${where}: world "${w.id}", turn "${t.id}": image ${JSON.stringify(t.image.path.slice(0, 200))} ${problem}; left out`);
          delete t.image;
        }
      }
    }
    return turnIds;
  }

  /** The world's usable questions (ids new to the dataset, times that are dates) with their evidence kept to its turns. */
  private questions(w: WorldRecord, where: string, turnIds: Set<string>): { questions: WorldRecord['questions']; asked: Map<string, number> } {
    const questions: WorldRecord['questions'] = [];
    const asked = new Map<string, number>();
    for (const q of w.questions) {
      if (this.questionIds.has(q.id)) {
        this.warn(`${where}: question id "${q.id}" appears twice; the first is kept`);
        continue;
      }
      if (q.time !== undefined) {
        const t = parseTime(q.time);
        if (typeof t !== 'number') {
          this.warn(`${where}: question "${q.id}": time ${shownTime(q.time)} is ${t === 'not a date' ? 'not a date' : 'outside the years 1 to 9999'}; the question is left out`);
          continue;
        }
        asked.set(q.id, t);
      }
      const badChoices = q.choices && choicesProblem(q.choices);
      if (badChoices) {
        // Two choices that read the same, or one that reads as nothing: the gold one cannot be told apart.
        this.warn(`${where}: question "${q.id}": ${badChoices}; the question is left out`);
        continue;
      }
      const unknown = (q.evidence ?? []).filter((id) => !turnIds.has(id));
      if (unknown.length) this.warn(`${where}: question "${q.id}" cites evidence ${unknown.slice(0, 5).join(', ')} that is not a turn of world "${w.id}"; left out`);
      this.questionIds.add(q.id);
      questions.push({ ...q, ...(q.evidence ? { evidence: q.evidence.filter((id) => turnIds.has(id)) } : {}) });
    }
    return { questions, asked };
  }

  /** A .json file: one document { dataset, worlds }, read whole (so within the file cap). */
  readDocument(file: string): void {
    const name = basename(file);
    const size = statSync(file).size;
    if (size > this.limits.fileBytes) return this.unread(name, `${sizeText(size)}, over the ${sizeText(this.limits.fileBytes)} a JSON dataset file may hold (JSONL is read line by line); left out`);
    let text: string;
    try {
      text = readSmallFile(file, this.limits.fileBytes) ?? '';
    } catch (err) {
      return this.unread(name, `cannot be read: ${(err as Error).message}`);
    }
    this.files.push({ file: name, sha256: createHash('sha256').update(text).digest('hex').slice(0, 16) });
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      return this.unread(name, `not JSON${jsonErrorPlace(err)}`);
    }
    const r = DocumentSchema.safeParse(doc);
    if (!r.success) return this.unread(name, `not a dataset document ({ "dataset": {...}, "worlds": [...] }): ${issues(r.error, DocumentSchema)}`);
    this.takeHeader({ type: 'dataset', ...r.data.dataset }, name);
    r.data.worlds.forEach((w, i) => this.takeWorld(w && typeof w === 'object' ? { type: 'world', ...w } : w, `${name}: worlds[${i}]`, dirname(file)));
  }

  /** A .jsonl file, line by line: a line is parsed only under the line cap. */
  readLines(file: string): void {
    const name = basename(file);
    const hash = createHash('sha256');
    const read = readLines(file, { maxLineBytes: this.limits.lineBytes, maxFileBytes: this.limits.fileBytes }, (line) => {
      const where = `${name}:${line.number}`;
      if ('tooLong' in line) return this.unread(where, `the line is ${sizeText(line.bytes)}, over the ${sizeText(this.limits.lineBytes)} a line may hold`);
      hash.update(line.text).update('\n');
      if (!line.text.trim()) return;
      let raw: unknown;
      try {
        raw = JSON.parse(line.text);
      } catch (err) {
        return this.unread(where, `not JSON${jsonErrorPlace(err)}`);
      }
      const type = raw && typeof raw === 'object' ? (raw as { type?: unknown }).type : undefined;
      if (type === 'dataset') this.takeHeader(raw, where);
      else if (type === 'world') this.takeWorld(raw, where, dirname(file));
      else this.unread(where, `a line must be {"type": "dataset", …} or {"type": "world", …}; got ${kindOf(type)}`);
    });
    if (read.kind !== 'read') this.unread(name, `${read.kind === 'missing' ? 'vanished while the dataset was read' : 'not a plain file'}; left out`);
    else if (read.cut) this.unread(name, `over ${sizeText(this.limits.fileBytes)}; the rest of the file is left out`);
    this.files.push({ file: name, sha256: hash.digest('hex').slice(0, 16) });
  }
}

/** `limits` lower the ceilings (a test's way to reach them without writing gigabytes). */
export function loadDataset(path: string, limits: Limits = LIMITS): Dataset {
  const reader = new DatasetReader(limits);
  for (const file of dataFiles(resolve(path), limits)) {
    if (file.endsWith('.json')) reader.readDocument(file);
    else reader.readLines(file);
  }
  const { header, worlds, warnings, files, leftOut } = reader;
  const problems = warnings.length ? `; problems: ${warnings.slice(0, 5).join(' | ')}` : '';
  if (!header) throw new ContentError(`dataset ${path} has no usable header line ({"type": "dataset", "name": …, "scoring": …})${problems}`);
  const asked = worlds.reduce((n, w) => n + w.questions.length, 0);
  if (worlds.length === 0 || asked === 0) throw new ContentError(`dataset ${path} has nothing usable: ${worlds.length} worlds, ${asked} questions${problems}`);
  return { header, worlds, files, warnings, leftOut };
}
