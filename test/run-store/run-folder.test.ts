// A run folder writes only inside itself: node ids must be safe names, program file names (a model writes them)
// must be safe relative .ts paths, and a link planted in the folder is never written through.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedNodeIds } from '../../engine/search/node-ids.ts';
import type { RunFolder } from '../../run-store/run-folder.ts';
import { createToyRun } from '../support/toy-run.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A scratch folder holding a run folder `run` and a neighbour `outside` with a file nobody may touch. */
function scratch(): { run: RunFolder; outside: string } {
  const base = mkdtempSync(join(tmpdir(), 'run-folder-'));
  dirs.push(base);
  const outside = join(base, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'index.ts'), 'precious');
  const { folder: run } = createToyRun(join(base, 'run'), { budget: 0, seeds: [], seed: 0 });
  return { run, outside };
}

describe('run folder writes', () => {
  it('refuses node ids and program file names that would leave the folder', () => {
    const { run, outside } = scratch();
    expect(() => run.writeProgram('seed-../../outside', { 'index.ts': 'x' })).toThrow(
      /"seed-\.\.\/\.\.\/outside" is not a safe node id/,
    );
    expect(() => run.writeProgram('n1', { 'index.ts': 'ok', '../../outside/index.ts': 'x' })).toThrow(
      /program n1: "\.\.\/\.\.\/outside\/index\.ts" is not a safe file name/,
    );
    expect(() => run.writeProgram('n1', { '/tmp/x.ts': 'x' })).toThrow(/not a safe file name/);
    expect(() => run.evidenceDir('../outside', 'train', 0)).toThrow(/not a safe node id/);
    expect(() =>
      run.writeMeta('../outside', {
        node: 'n',
        parent: 'root',
        step: 1,
        agent: 'offline',
        description: '',
        attempts: 1,
      }),
    ).toThrow(/not a safe node id/);
    expect(readFileSync(join(outside, 'index.ts'), 'utf8')).toBe('precious');
    expect(existsSync(join(run.dir, 'programs', 'n1', 'index.ts'))).toBe(false);
    run.writeProgram('n1', { 'index.ts': 'ok', 'lib/util.ts': 'u' });
    expect(readFileSync(join(run.dir, 'programs', 'n1', 'lib', 'util.ts'), 'utf8')).toBe('u');
  });

  it('never writes through a link planted in the folder', () => {
    const { run, outside } = scratch();
    rmSync(join(run.dir, 'programs'), { recursive: true });
    symlinkSync(outside, join(run.dir, 'programs'));
    expect(() => run.writeProgram('root', { 'index.ts': 'x' })).toThrow(/symbolic link that leads outside/);
    expect(() => run.programDir('root')).toThrow(/symbolic link that leads outside/);
    rmSync(join(run.dir, 'evidence'), { recursive: true });
    symlinkSync(outside, join(run.dir, 'evidence'));
    expect(() => run.evidenceDir('root', 'train', 0)).toThrow(/symbolic link that leads outside/);
    symlinkSync(join(outside, 'index.ts'), join(run.dir, 'journal.jsonl'));
    expect(() => run.journalPath).toThrow(/symbolic link that leads outside/);
    expect(readFileSync(join(outside, 'index.ts'), 'utf8')).toBe('precious');
  });

  it('reads run.json only when it is a plain file of sensible size', () => {
    const { run } = scratch();
    writeFileSync(run.runJson, `{"pad":"${'x'.repeat(1_100_000)}"}`);
    expect(() => run.read()).toThrow(/run.json is over 1000000 bytes/);
  });
});

describe('seed node ids', () => {
  it('are safe names made from the seed, unique, whatever the seed path', () => {
    expect(seedNodeIds(['omni-simplemem', 'bm25'])).toEqual(['seed-omni-simplemem', 'seed-bm25']);
    expect(seedNodeIds(['../../../../some/dir', './other/dir/', 'x/my-prog.ts', '/abs/<script>.ts', '..'])).toEqual([
      'seed-dir',
      'seed-dir-2',
      'seed-my-prog',
      'seed-script',
      expect.stringMatching(/^seed-[a-z0-9._-]+$/i),
    ]);
  });
});
