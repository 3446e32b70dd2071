// A failed quick examination as the repair prompt shows it: the failure, every check's line, and the child's own
// lines where it failed, numbered (a type error names line 435; the model should not have to count to it).
import type { QuickExamReport } from '../../../sandbox/quick-exam.ts';
import type { ProgramFiles } from '../../../memo-programs/files.ts';

/** Places shown at most, and lines around each. */
const MAX_PLACES = 5;
const AROUND = 2;
const LINE_CHARS = 300;

export function failureText(report: QuickExamReport): string {
  const f = report.failure;
  if (!f) return 'unknown';
  return `${f.check}${f.case ? ` (case ${f.case})` : ''}: ${f.detail}${f.stack ? `\n${f.stack}` : ''}`;
}

export function reportText(report: QuickExamReport): string {
  return report.checks
    .map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.message}${c.location ? ` [${c.location}]` : ''}`)
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

/** The child's lines around each place the report names, numbered; empty when it names none of the child's files. */
export function failingLines(report: QuickExamReport, files: ProgramFiles): string {
  const parts: string[] = [];
  for (const [file, lines] of places(report, files)) {
    const all = (files[file] as string).split('\n');
    const marked = new Set(lines);
    const shown = new Set<number>();
    for (const l of lines)
      for (let i = Math.max(1, l - AROUND); i <= Math.min(all.length, l + AROUND); i++) shown.add(i);
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
    ? `\nThe child's lines where it failed (the numbers and bars are not part of the file):\n${parts.join('\n')}\n`
    : '';
}
