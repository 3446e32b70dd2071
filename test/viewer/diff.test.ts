// The page's line diff (viewer/page/diff.js), loaded as the browser loads it: a classic script that
// adds itself to window.Automemo.
import { describe, expect, it } from 'vitest';
import { loadPageScripts } from './page-script.ts';

interface Op {
  t: ' ' | '+' | '-';
  s: string;
}
interface DiffApi {
  lineDiff(a: string, b: string): Op[];
  hunks(ops: Op[], context?: number): { header: string; ops: Op[] }[];
  filesDiff(a: Record<string, string>, b: Record<string, string>): { name: string; status: string; added: number; removed: number }[];
}


const apply = (ops: Op[], side: '+' | '-') => ops.filter((o) => o.t !== side).map((o) => o.s);

describe('page line diff', () => {
  const d = loadPageScripts<{ diff: DiffApi }>('diff.js').diff;

  it('turns one text into the other with a minimal edit script', () => {
    const a = 'a\nb\nc\nd\ne\n';
    const b = 'a\nc\nd\nX\ne\nf\n';
    const ops = d.lineDiff(a, b);
    expect(apply(ops, '+')).toEqual(a.trim().split('\n'));
    expect(apply(ops, '-')).toEqual(b.trim().split('\n'));
    expect(ops.filter((o) => o.t !== ' ')).toHaveLength(3);
  });

  it('lists each changed region as diff -u does: its removed lines, then its added lines', () => {
    // Interleaved changes (the LCS walk alone gives `+` first on ties) and a region replaced whole.
    const a = 'keep\nold 1\nold 2\nmid\nx\ny\nend\n';
    const b = 'keep\nnew 1\nnew 2\nnew 3\nmid\nz\nend\n';
    const ops = d.lineDiff(a, b);
    expect(ops.map((o) => `${o.t}${o.s}`)).toEqual([' keep', '-old 1', '-old 2', '+new 1', '+new 2', '+new 3', ' mid', '-x', '-y', '+z', ' end']);
    expect(apply(ops, '+')).toEqual(a.trim().split('\n'));
    expect(apply(ops, '-')).toEqual(b.trim().split('\n'));
    // In every run of changed lines no `-` follows a `+`.
    const text = Array.from({ length: 60 }, (_, i) => `l${i % 9}`).join('\n');
    const other = Array.from({ length: 60 }, (_, i) => (i % 4 ? `l${(i * 7) % 9}` : `m${i}`)).join('\n');
    const signs = d.lineDiff(text, other).map((o) => o.t).join('');
    expect(signs).not.toMatch(/\+-/);
    expect(apply(d.lineDiff(text, other), '-')).toEqual(other.split('\n'));
  });

  it('groups changes into hunks with context, like diff -u', () => {
    const a = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
    const b = a.replace('line 3\n', 'line three\n').replace('line 30\n', 'line thirty\n');
    const hunks = d.hunks(d.lineDiff(a, b), 3);
    expect(hunks.map((h) => h.header)).toEqual(['@@ -1,7 +1,7 @@', '@@ -28,7 +28,7 @@']);
  });

  it('names added, removed, changed and unchanged files', () => {
    const files = d.filesDiff({ 'index.ts': 'x\n', 'a.ts': 'a\n', 'same.ts': 's\n' }, { 'index.ts': 'y\n', 'b.ts': 'b\n', 'same.ts': 's\n' });
    expect(files.map((f) => [f.name, f.status, f.added, f.removed])).toEqual([
      ['index.ts', 'changed', 1, 1],
      ['a.ts', 'removed', 0, 1],
      ['b.ts', 'added', 1, 0],
      ['same.ts', 'same', 0, 0],
    ]);
  });

  it('stays quick on large files', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `a${i}`).join('\n');
    const b = Array.from({ length: 3000 }, (_, i) => (i % 7 ? `a${i}` : `b${i}`)).join('\n');
    const started = Date.now();
    const ops = d.lineDiff(a, b);
    expect(apply(ops, '-')).toEqual(b.split('\n'));
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
