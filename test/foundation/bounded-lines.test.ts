// Reading a line-per-record file within caps: a giant line is measured and skipped, never decoded; reading stops at
// the file cap; a folder or a pipe where a file should be is reported, never opened for reading.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Line, readLines } from '../../foundation/bounded-lines.ts';

const dir = mkdtempSync(join(tmpdir(), 'bounded-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const collect = (path: string, maxLineBytes: number, maxFileBytes: number) => {
  const lines: Line[] = [];
  const read = readLines(path, { maxLineBytes, maxFileBytes }, (l) => lines.push(l));
  return { lines, read };
};

describe('bounded line reading', () => {
  it('gives each line, a too-long one only by its size, and says whether the last line was finished', () => {
    const path = join(dir, 'a.jsonl');
    writeFileSync(path, `one\n${'x'.repeat(3 * 2 ** 20)}\n\nthree-and-a-bit`);
    const { lines, read } = collect(path, 2 ** 20, 2 ** 30);
    expect(lines).toEqual([
      { number: 1, text: 'one', terminated: true },
      { number: 2, tooLong: true, bytes: 3 * 2 ** 20, terminated: true },
      { number: 3, text: '', terminated: true },
      { number: 4, text: 'three-and-a-bit', terminated: false },
    ]);
    expect(read).toEqual({ kind: 'read', bytes: 3 * 2 ** 20 + 21, cut: false });
  });

  it('stops at the file cap and says so, leaving out the line cut there', () => {
    const path = join(dir, 'b.jsonl');
    writeFileSync(path, 'aaaa\nbbbb\ncccc\n');
    const { lines, read } = collect(path, 100, 12);
    expect(lines.map((l) => ('text' in l ? l.text : l.bytes))).toEqual(['aaaa', 'bbbb']);
    expect(read).toEqual({ kind: 'read', bytes: 12, cut: true });
    expect(collect(path, 100, 15).read).toEqual({ kind: 'read', bytes: 15, cut: false });
  });

  it('reports a missing file, a folder and a pipe without reading them', () => {
    expect(collect(join(dir, 'none'), 10, 10).read).toEqual({ kind: 'missing' });
    mkdirSync(join(dir, 'folder.jsonl'));
    expect(collect(join(dir, 'folder.jsonl'), 10, 10).read).toEqual({ kind: 'not-a-file' });
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
    expect(collect(join(dir, 'pipe.jsonl'), 10, 10).read).toEqual({ kind: 'not-a-file' });
  });
});
