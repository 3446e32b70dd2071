// Safe names and paths: what a node id may be, and the one gate every write into a run folder goes through.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { insideRoot, isSafeName, isSafeRelPath, mkdirInside, PathOutsideError, resolveInside, toSafeName, uniqueName, writeInside } from '../../foundation/safe-path.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'safe-path-'));
  dirs.push(d);
  return d;
};

describe('safe names', () => {
  it('takes plain names and refuses anything that could be a path', () => {
    for (const ok of ['root', 'seed-omni-simplemem', 'n12-try3', 'a.b_c', 'x'.repeat(64)]) expect(isSafeName(ok)).toBe(true);
    for (const bad of ['', '.', '..', '../x', 'a/b', '.hidden', '-flag', 'a\0b', '<script>', 'x'.repeat(65), 'é']) expect(isSafeName(bad)).toBe(false);
    expect(isSafeRelPath('evidence/seed-a/train-0')).toBe(true);
    for (const bad of ['../x', 'a/../b', '/abs', 'a//b', 'a/', 'a\\..\\b', 'a/b/c/d/e/f/g/h/i']) expect(isSafeRelPath(bad)).toBe(false);
  });

  it('makes a safe name from any text, and a unique one when it is taken', () => {
    expect(toSafeName('seed-../../../../some/dir', 'x')).toBe('seed-some-dir');
    expect(toSafeName('../..', 'fallback')).toBe('fallback');
    expect(toSafeName('<script>alert(1)</script>', 'x')).toBe('script-alert-1-script');
    expect(isSafeName(toSafeName('é'.repeat(500), 'x'))).toBe(true);
    const taken = new Set(['seed-a', 'seed-a-2']);
    expect(uniqueName('seed-a', (c) => taken.has(c))).toBe('seed-a-3');
    expect(uniqueName('seed-b', (c) => taken.has(c))).toBe('seed-b');
    const long = 'y'.repeat(64);
    expect(uniqueName(long, (c) => c === long)).toMatch(/^y{62}-2$/);
  });
});

describe('paths inside a folder', () => {
  it('refuses .., absolute paths, NULs and links that lead out; names the path and why', () => {
    const root = tmp();
    const outside = tmp();
    writeFileSync(join(outside, 'precious.txt'), 'keep me');
    symlinkSync(outside, join(root, 'link'));
    expect(() => resolveInside(root, '../x')).toThrow(/"\.\.\/x" climbs out with "\.\."/);
    expect(() => resolveInside(root, join(outside, 'x'))).toThrow(/is an absolute path/);
    expect(() => resolveInside(root, 'a\0b')).toThrow(/NUL/);
    expect(() => resolveInside(root, 'link/precious.txt')).toThrow(PathOutsideError);
    expect(() => resolveInside(root, 'link/new/deeper.txt')).toThrow(/symbolic link that leads outside/);
    expect(resolveInside(root, 'a/b/c.txt')).toBe(join(root, 'a', 'b', 'c.txt'));
    expect(insideRoot(root, 'link/precious.txt')).toBeNull();
    expect(insideRoot(root, 'missing')).toBeNull();
  });

  it('writes only inside: never through a planted link, whether it points out or in', () => {
    const root = tmp();
    const outside = tmp();
    writeFileSync(join(outside, 'precious.txt'), 'keep me');
    mkdirSync(join(root, 'programs'));
    symlinkSync(join(outside, 'precious.txt'), join(root, 'programs', 'index.ts'));
    symlinkSync(outside, join(root, 'evidence'));
    expect(() => writeInside(root, 'programs/index.ts', 'overwritten')).toThrow(/symbolic link that leads outside/);
    // A link that stays inside is refused too: a run folder's files are never links.
    writeFileSync(join(root, 'programs', 'real.ts'), 'real');
    symlinkSync(join(root, 'programs', 'real.ts'), join(root, 'programs', 'alias.ts'));
    expect(() => writeInside(root, 'programs/alias.ts', 'x')).toThrow(/alias.ts in .* is a symbolic link; refused to write through it/);
    expect(readFileSync(join(root, 'programs', 'real.ts'), 'utf8')).toBe('real');
    expect(() => writeInside(root, 'evidence/seed/train-0/tasks.jsonl', 'x')).toThrow(PathOutsideError);
    expect(() => mkdirInside(root, 'evidence/seed')).toThrow(PathOutsideError);
    expect(readFileSync(join(outside, 'precious.txt'), 'utf8')).toBe('keep me');
    expect(existsSync(join(outside, 'seed'))).toBe(false);
    writeInside(root, 'programs/n1/index.ts', 'one');
    writeInside(root, 'programs/n1/index.ts', '+two', 'append');
    expect(readFileSync(join(root, 'programs', 'n1', 'index.ts'), 'utf8')).toBe('one+two');
    expect(() => writeInside(root, 'programs/n1/index.ts', 'again', 'exclusive')).toThrow(/EEXIST/);
  });
});
