// A failed quick examination as the repair prompt shows it: the failure, every check's line, and the child's own
// code where it failed, numbered (a type error names line 435; the model should not have to count to it): the whole
// top-level declaration holding each line the report names, since the cause is often a few lines above it (a type
// error at a call, caused by the declaration of what it is called with), within bounds.
import type { QuickExamReport } from '../../../sandbox/quick-exam.ts';
import type { ProgramFiles } from '../../../memo-programs/files.ts';

/** Places shown at most; lines of a declaration shown above and below a place at most, and lines around one past it. */
const MAX_PLACES = 5;
const REACH = 40;
const AROUND = 8;
const LINE_CHARS = 300;
/** A line that starts a top-level declaration or statement (not a comment, not a closing bracket). */
const TOP_LEVEL = /^[^\s}\])/*]/;
/** A top-level line that closes the declaration above it. */
const CLOSER = /^[}\])]/;

export function failureText(report: QuickExamReport): string {
  const f = report.failure;
  if (!f) return 'unknown';
  return `${f.check}${f.case ? ` (case ${f.case})` : ''}: ${f.detail}${f.stack ? `\n${f.stack}` : ''}`;
}

/** Every check's line; the failing check whose message is the failure's detail (failureText, shown above) says so. */
export function reportText(report: QuickExamReport): string {
  const f = report.failure;
  const message = (c: QuickExamReport['checks'][number]) =>
    !c.ok && f && c.name === f.check && c.message === f.detail ? '(the failure above)' : c.message;
  return report.checks
    .map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${message(c)}${c.location ? ` [${c.location}]` : ''}`)
    .join('\n');
}

/**
 * The child's file → line numbers the failing checks point at: their locations, `file:line:col` in their text (a
 * path ending in one of the child's files), `line:col` of the entry.
 */
function places(report: QuickExamReport, files: ProgramFiles): Map<string, number[]> {
  const own = (path: string) =>
    Object.hasOwn(files, path) ? path : Object.keys(files).find((k) => path.endsWith(`/${k}`));
  const found: [string, number][] = [];
  const texts = [
    ...report.checks.filter((c) => !c.ok).flatMap((c) => [c.location ?? '', c.message]),
    report.failure?.detail ?? '',
    report.failure?.stack ?? '',
  ];
  for (const t of texts.map((x) => x.slice(0, 20_000))) {
    for (const m of t.matchAll(/(?:^|[\s([])([\w./-]+\.ts):(\d+)(?::\d+)?/gm))
      found.push([m[1] as string, Number(m[2])]);
    for (const m of t.matchAll(/^(\d+):(\d+) /gm)) found.push(['index.ts', Number(m[1])]);
  }
  const out = new Map<string, number[]>();
  for (const [file, line] of found) {
    const name = own(file);
    if (name === undefined) continue;
    const at = out.get(name) ?? [];
    if (!at.includes(line) && [...out.values()].flat().length < MAX_PLACES) out.set(name, [...at, line]);
  }
  return out;
}

/**
 * The lines (1-based, inclusive) of the top-level declaration holding `line`: from the nearest top-level line at or
 * above it to the first top-level line below it (included when it closes the declaration), at most REACH lines either
 * way; AROUND lines either side when no declaration is found within reach.
 */
export function enclosing(all: string[], line: number): [number, number] {
  let from = 0;
  for (let i = line; i >= Math.max(1, line - REACH); i--)
    if (TOP_LEVEL.test(all[i - 1] ?? '')) {
      from = i;
      break;
    }
  let to = 0;
  for (let i = line + 1; i <= Math.min(all.length, line + REACH); i++) {
    const text = all[i - 1] ?? '';
    if (CLOSER.test(text)) {
      to = i;
      break;
    }
    if (TOP_LEVEL.test(text)) {
      to = i - 1;
      break;
    }
  }
  if (TOP_LEVEL.test(all[line - 1] ?? '') && !to) to = line;
  return [from || Math.max(1, line - AROUND), to || Math.min(all.length, line + AROUND)];
}

/** The child's code around each place the report names, numbered; empty when it names none of the child's files. */
export function failingLines(report: QuickExamReport, files: ProgramFiles): string {
  const parts: string[] = [];
  for (const [file, lines] of places(report, files)) {
    const all = (files[file] as string).split('\n');
    const marked = new Set(lines);
    const shown = new Set<number>();
    for (const l of lines) {
      const [from, to] = enclosing(all, Math.min(Math.max(1, l), all.length));
      for (let i = from; i <= to; i++) shown.add(i);
    }
    if (!shown.size) continue;
    const width = String(Math.max(...shown)).length;
    const rows = [...shown]
      .sort((a, b) => a - b)
      .map(
        (i) => `${marked.has(i) ? '>' : ' '} ${String(i).padStart(width)} | ${(all[i - 1] ?? '').slice(0, LINE_CHARS)}`,
      );
    parts.push(`${file}:\n${rows.join('\n')}`);
  }
  return parts.length
    ? `\nThe child's code where it failed: the declaration holding each line the report names (marked >; the numbers and bars are not part of the file):\n${parts.join('\n')}\n`
    : '';
}
