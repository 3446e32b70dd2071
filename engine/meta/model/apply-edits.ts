// Applying a model's edits to a program, in order, each to the file as the edits before it left it. A block's
// SEARCH lines must appear exactly once, as whole lines; one that appears nowhere or several times is not applied
// and comes back as a failure with what the model needs to fix it: the lines of the file nearest to what it
// searched for, or where its several matches are. Sizes are bounded: no edit grows a file or the program past what
// a program may be.
import type { ProgramFiles } from '../../../memo-programs/files.ts';
import type { FileEdit } from './edit-format.ts';

export const MAX_FILE_CHARS = 1_000_000;
/** As a job's program may be (engine/jobs/job.ts). */
export const MAX_PROGRAM_CHARS = 4 * 2 ** 20;
/** Lines of context shown around the nearest match, and at most this many lines in all. */
const NEAR_CONTEXT = 2;
const NEAR_MAX_LINES = 40;
/** Equal lines followed per search line when looking for the nearest place (bounds the work on repetitive files). */
const VOTES_PER_LINE = 64;

export interface EditFailure {
  /** The edit's position in the reply, from 1. */
  index: number;
  file: string;
  problem: string;
  /** The lines of the file nearest to the edit's SEARCH text (line numbers from 1, inclusive). */
  nearest?: { from: number; to: number; lines: string[] };
}

export interface Applied {
  files: ProgramFiles;
  applied: number;
  failures: EditFailure[];
}

/** Start offsets of `needle` in `text` where it begins and ends on line boundaries, up to `limit` of them. */
export function lineMatches(text: string, needle: string, limit = 20): number[] {
  const out: number[] = [];
  for (let p = text.indexOf(needle); p >= 0 && out.length < limit; p = text.indexOf(needle, p + 1)) {
    const end = p + needle.length;
    if ((p === 0 || text[p - 1] === '\n') && (end === text.length || text[end] === '\n')) out.push(p);
  }
  return out;
}

const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

/** Where in `lines` the block of `search` lines most nearly is: most lines equal (trimmed) at the same offsets. */
export function nearestLines(
  lines: readonly string[],
  search: readonly string[],
): { from: number; to: number; lines: string[] } | undefined {
  if (!lines.length || !search.length) return undefined;
  const where = new Map<string, number[]>();
  for (const [i, l] of lines.entries()) {
    const key = l.trim();
    if (!key) continue;
    const at = where.get(key);
    if (!at) where.set(key, [i]);
    else if (at.length < VOTES_PER_LINE) at.push(i);
  }
  const votes = new Map<number, number>();
  for (const [j, s] of search.entries())
    for (const i of where.get(s.trim()) ?? []) votes.set(i - j, (votes.get(i - j) ?? 0) + 1);
  let start: number | undefined;
  let best = 0;
  for (const [k, v] of votes) if (v > best || (v === best && start !== undefined && k < start)) [start, best] = [k, v];
  if (start === undefined) start = mostAlike(lines, search);
  if (start === undefined) return undefined;
  const from = Math.max(0, start - NEAR_CONTEXT);
  const to = Math.min(lines.length, start + search.length + NEAR_CONTEXT, from + NEAR_MAX_LINES);
  return { from: from + 1, to, lines: lines.slice(from, to) };
}

/** The line most like the search's longest line (shared character pairs), when no line equals any search line. */
function mostAlike(lines: readonly string[], search: readonly string[]): number | undefined {
  const longest = search.reduce((a, b) => (b.trim().length > a.trim().length ? b : a), '').trim();
  if (!longest) return undefined;
  const pairs = (s: string) => {
    const out = new Set<string>();
    for (let i = 0; i + 1 < s.length && i < 400; i++) out.add(s.slice(i, i + 2));
    return out;
  };
  const want = pairs(longest);
  const offset = search.findIndex((s) => s.trim() === longest);
  let best = 0;
  let at: number | undefined;
  for (const [i, l] of lines.entries()) {
    const got = pairs(l.trim());
    let shared = 0;
    for (const p of got) if (want.has(p)) shared++;
    const score = (2 * shared) / (want.size + got.size || 1);
    if (score > best) [best, at] = [score, i - offset];
  }
  return best > 0.3 && at !== undefined ? Math.max(0, at) : undefined;
}

const total = (files: ProgramFiles) => Object.values(files).reduce((n, t) => n + t.length, 0);

/** `text` with the `search` lines (found once) replaced; a failure's problem otherwise. */
export function replaceOnce(
  text: string,
  search: string[],
  replace: string[],
): { text: string } | { problem: string; nearest?: EditFailure['nearest'] } {
  const needle = search.join('\n');
  const at = lineMatches(text, needle);
  if (at.length === 0) {
    const near = nearestLines(text.split('\n'), search);
    return {
      problem: 'its SEARCH lines are not in the file (as the edits before it left it)',
      ...(near ? { nearest: near } : {}),
    };
  }
  if (at.length > 1)
    return {
      problem: `its SEARCH lines appear ${at.length >= 20 ? '20 or more' : at.length} times (at lines ${at
        .slice(0, 8)
        .map((p) => lineOf(text, p))
        .join(', ')}); add lines around the change so that they appear once`,
    };
  const p = at[0] as number;
  const end = p + needle.length;
  if (replace.length) return { text: text.slice(0, p) + replace.join('\n') + text.slice(end) };
  // Deleting lines takes their line break with them.
  if (end < text.length) return { text: text.slice(0, p) + text.slice(end + 1) };
  return { text: text.slice(0, Math.max(0, p - 1)) + text.slice(end) };
}

/** One edit applied to `files` (changed in place), or why it was not. */
function applyOne(files: ProgramFiles, e: FileEdit): { problem: string; nearest?: EditFailure['nearest'] } | undefined {
  const current = Object.hasOwn(files, e.file) ? files[e.file] : undefined;
  let next: string;
  if (e.kind === 'whole') next = e.text;
  else if (!e.search.length) {
    if (current !== undefined)
      return { problem: `its SEARCH part is empty but ${e.file} exists: copy the lines to change into SEARCH` };
    next = e.replace.length ? `${e.replace.join('\n')}\n` : '';
  } else if (current === undefined) return { problem: `there is no file ${e.file} (an empty SEARCH creates one)` };
  else {
    const r = replaceOnce(current, e.search, e.replace);
    if (!('text' in r)) return r;
    next = r.text;
  }
  if (next.length > MAX_FILE_CHARS)
    return { problem: `it would make ${e.file} ${next.length} characters long, more than ${MAX_FILE_CHARS}` };
  if (total(files) - (current?.length ?? 0) + next.length > MAX_PROGRAM_CHARS)
    return { problem: `it would make the program more than ${MAX_PROGRAM_CHARS} characters long` };
  files[e.file] = next;
  return undefined;
}

/** The program after `edits`, each applied in turn where it matches; the others as failures. */
export function applyEdits(base: ProgramFiles, edits: readonly FileEdit[], firstIndex = 1): Applied {
  const files: ProgramFiles = { ...base };
  const failures: EditFailure[] = [];
  let applied = 0;
  for (const [i, e] of edits.entries()) {
    const failed = applyOne(files, e);
    if (failed) failures.push({ index: firstIndex + i, file: e.file, ...failed });
    else applied++;
  }
  return { files, applied, failures };
}
