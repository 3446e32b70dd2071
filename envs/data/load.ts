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
import { DocumentSchema, type Header, HeaderSchema, LIMITS, type WorldRecord, WorldSchema } from './format.ts';

export interface LoadedWorld extends WorldRecord {
  /** The folder image paths are relative to. */
  baseDir: string;
  /** Session times, ms since epoch, in order. */
  times: number[];
  /** Where the world came from, for messages. */
  where: string;
}

export interface Dataset {
  header: Header;
  worlds: LoadedWorld[];
  files: { file: string; sha256: string }[];
  /** Problems that did not stop loading. */
  warnings: string[];
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

function issues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`)
    .join('; ');
}

/** Entries a dataset folder may hold in all (data files or not): past this the folder is refused unread. */
const MAX_FOLDER_ENTRIES = 100_000;

function dataFiles(path: string, limits: Limits): string[] {
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
  return names.map((n) => join(path, n));
}

/** Session times programs and reports can use: the years 1 to 9999 (a retrieve a day after the last stays a date). */
const EARLIEST_TIME = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST_TIME = Date.parse('9999-12-31T23:59:59.999Z');

function parseTime(t: string | number): number | 'not a date' | 'out of range' {
  const ms = typeof t === 'number' ? t : Date.parse(t);
  if (!Number.isFinite(ms)) return 'not a date';
  return ms < EARLIEST_TIME || ms > LATEST_TIME ? 'out of range' : ms;
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

/** `limits` lower the ceilings (a test's way to reach them without writing gigabytes). */
export function loadDataset(path: string, limits: Limits = LIMITS): Dataset {
  const root = resolve(path);
  const warnings: string[] = [];
  const warn = (w: string) => {
    if (warnings.length < MAX_WARNINGS) warnings.push(w);
    else if (warnings.length === MAX_WARNINGS) warnings.push('… more problems not listed');
  };
  let header: Header | undefined;
  const worlds: LoadedWorld[] = [];
  const worldIds = new Set<string>();
  const questionIds = new Set<string>();
  const files: Dataset['files'] = [];
  const images = { count: 0, bytes: 0 };

  const takeWorld = (raw: unknown, where: string, baseDir: string) => {
    if (worlds.length >= limits.worlds) return warn(`${where}: more than ${limits.worlds} worlds; the rest is left out`);
    const r = WorldSchema.safeParse(raw);
    if (!r.success) return warn(`${where}: not a usable world: ${issues(r.error)}`);
    const w = r.data;
    if (worldIds.has(w.id)) return warn(`${where}: world "${w.id}" appears twice; the first is kept`);
    const times: number[] = [];
    for (const [i, s] of w.sessions.entries()) {
      const t = parseTime(s.time);
      const shown = JSON.stringify(typeof s.time === 'string' ? s.time.slice(0, 50) : s.time);
      if (t === 'not a date') return warn(`${where}: world "${w.id}", session ${i + 1}: time ${shown} is not a date`);
      if (t === 'out of range') return warn(`${where}: world "${w.id}", session ${i + 1}: time ${shown} is outside the years 1 to 9999; the world is left out`);
      times.push(t);
    }
    const turnIds = new Set<string>();
    for (const s of w.sessions) {
      for (const t of s.turns) {
        if (turnIds.has(t.id)) warn(`${where}: world "${w.id}": turn id "${t.id}" appears twice; evidence naming it counts the first`);
        turnIds.add(t.id);
        if (!t.image) continue;
        const problem = imageProblem(baseDir, t.image.path, images, limits);
        if (problem) {
          warn(`${where}: world "${w.id}", turn "${t.id}": image ${JSON.stringify(t.image.path.slice(0, 200))} ${problem}; left out`);
          delete t.image;
        }
      }
    }
    const questions = [];
    for (const q of w.questions) {
      if (questionIds.has(q.id)) {
        warn(`${where}: question id "${q.id}" appears twice; the first is kept`);
        continue;
      }
      const unknown = (q.evidence ?? []).filter((id) => !turnIds.has(id));
      if (unknown.length) warn(`${where}: question "${q.id}" cites evidence ${unknown.slice(0, 5).join(', ')} that is not a turn of world "${w.id}"; left out`);
      questionIds.add(q.id);
      questions.push({ ...q, ...(q.evidence ? { evidence: q.evidence.filter((id) => turnIds.has(id)) } : {}) });
    }
    worldIds.add(w.id);
    worlds.push({ ...w, questions, baseDir, times, where });
  };

  const takeHeader = (raw: unknown, where: string) => {
    const r = HeaderSchema.safeParse(raw);
    if (!r.success) return warn(`${where}: not a usable dataset header: ${issues(r.error)}`);
    if (header) return warn(`${where}: a second dataset header; the first is kept`);
    header = r.data;
  };

  for (const file of dataFiles(root, limits)) {
    const baseDir = dirname(file);
    const hash = createHash('sha256');
    const name = basename(file);
    if (file.endsWith('.json')) {
      let doc: unknown;
      const size = statSync(file).size;
      if (size > limits.fileBytes) {
        warn(`${name}: ${sizeText(size)}, over the ${sizeText(limits.fileBytes)} a JSON dataset file may hold (JSONL is read line by line); left out`);
        continue;
      }
      let text: string;
      try {
        text = readSmallFile(file, limits.fileBytes) ?? '';
      } catch (err) {
        warn(`${name}: cannot be read: ${(err as Error).message}`);
        continue;
      }
      hash.update(text);
      try {
        doc = JSON.parse(text);
      } catch (err) {
        warn(`${name}: not JSON${jsonErrorPlace(err)}`);
        continue;
      }
      const r = DocumentSchema.safeParse(doc);
      if (!r.success) {
        warn(`${name}: not a dataset document ({ "dataset": {...}, "worlds": [...] }): ${issues(r.error)}`);
        continue;
      }
      takeHeader({ type: 'dataset', ...r.data.dataset }, name);
      r.data.worlds.forEach((w, i) => takeWorld(w && typeof w === 'object' ? { type: 'world', ...w } : w, `${name}: worlds[${i}]`, baseDir));
    } else {
      const read = readLines(file, { maxLineBytes: limits.lineBytes, maxFileBytes: limits.fileBytes }, (line) => {
        const where = `${name}:${line.number}`;
        if ('tooLong' in line) return warn(`${where}: the line is ${sizeText(line.bytes)}, over the ${sizeText(limits.lineBytes)} a line may hold`);
        hash.update(line.text).update('\n');
        if (!line.text.trim()) return;
        let raw: unknown;
        try {
          raw = JSON.parse(line.text);
        } catch (err) {
          return warn(`${where}: not JSON${jsonErrorPlace(err)}`);
        }
        const type = raw && typeof raw === 'object' ? (raw as { type?: unknown }).type : undefined;
        if (type === 'dataset') takeHeader(raw, where);
        else if (type === 'world') takeWorld(raw, where, baseDir);
        else warn(`${where}: a line must be {"type": "dataset", …} or {"type": "world", …}; got ${kindOf(type)}`);
      });
      if (read.kind !== 'read') warn(`${name}: ${read.kind === 'missing' ? 'vanished while the dataset was read' : 'not a plain file'}; left out`);
      else if (read.cut) warn(`${name}: over ${sizeText(limits.fileBytes)}; the rest of the file is left out`);
    }
    files.push({ file: name, sha256: hash.digest('hex').slice(0, 16) });
  }
  if (!header) throw new Error(`dataset ${path} has no usable header line ({"type": "dataset", "name": …, "scoring": …})${warnings.length ? `; problems: ${warnings.slice(0, 5).join(' | ')}` : ''}`);
  const asked = worlds.reduce((n, w) => n + w.questions.length, 0);
  if (worlds.length === 0 || asked === 0) throw new Error(`dataset ${path} has nothing usable: ${worlds.length} worlds, ${asked} questions${warnings.length ? `; problems: ${warnings.slice(0, 5).join(' | ')}` : ''}`);
  return { header, worlds, files, warnings };
}
