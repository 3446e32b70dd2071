// A benchmark in a folder outside the repository with nothing installed beside it, by module and by data file,
// through every command a researcher uses on it: search, report, --resume (after the benchmark changed), eval,
// baselines and export (after it changed, and after it moved: the run's copy of it stands in). The commands run in
// this process (the packed test, test/examples/packed.test.ts, runs them from an installed tarball).
import { copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../foundation/paths.ts';
import { automemoInProcess as automemo } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'outside-benchmark-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The example module as written: it imports automemo, which this folder does not have (the running one is given).
const envFile = join(dir, 'vaults.ts');
const envSource = readFileSync(join(repoRoot, 'examples', 'vault-env', 'env.ts'), 'utf8');
writeFileSync(envFile, envSource);
const dataFile = join(dir, 'team-notes.jsonl');
copyFileSync(join(repoRoot, 'examples', 'qa-data', 'team-notes.jsonl'), dataFile);

describe('a benchmark outside the repository', () => {
  it('by module: search, report, resume after the module changed, eval, baselines, export', async () => {
    const run = join(dir, 'run-module');
    const searched = await automemo('search', '--env', envFile, '--budget', '1', '--no-test', '--out', run);
    expect(searched.code, searched.err).toBe(0);
    expect(searched.out).toContain(`from ${envFile}`);
    expect(JSON.parse(readFileSync(join(run, 'run.json'), 'utf8')).envSource).toMatchObject({ kind: 'module', name: 'vaults', path: envFile, files: 1 });
    expect(readFileSync(join(run, 'env', 'files', 'vaults.ts'), 'utf8')).toBe(envSource);
    expect((await automemo('report', run)).out).toContain(`env module  ${envFile}`);

    writeFileSync(envFile, `${readFileSync(envFile, 'utf8')}\n// tuned later\n`);
    const resumed = await automemo('search', '--resume', '--out', run, '--budget', '2');
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).toMatch(/environment module .*vaults\.ts changed since this run started .*; using the run's copy of it \(run-module\/env\)/);
    expect(resumed.out).toMatch(/^steps\s+2$/m);

    const evaluated = await automemo('eval', '--env', envFile, '--program', 'bm25', '--split', 'test', '--out', join(dir, 'eval-module'), '--json');
    expect(evaluated.code, evaluated.err).toBe(0);
    expect(JSON.parse(evaluated.out).score).toBeGreaterThan(0.9);
    const base = await automemo('baselines', '--env', envFile, '--programs', 'no-memory,bm25', '--out', join(dir, 'base-module'), '--json');
    expect(base.code, base.err).toBe(0);
    const [none, bm25] = JSON.parse(base.out) as { score: number }[];
    expect(bm25?.score).toBeGreaterThan((none?.score as number) + 0.2);

    // Exported after the module changed: from the run's copy of it, which the package names without a path.
    const exported = await automemo('export', run, '--out', join(dir, 'pkg-module'), '--native', 'source');
    expect(exported.code, exported.err).toBe(0);
    expect(exported.err).toMatch(/vaults\.ts changed since this run started .*; using the run's copy of it \(run-module\/env\)/);
    const pkg = readFileSync(join(dir, 'pkg-module', 'package.json'), 'utf8');
    expect(JSON.parse(pkg).automemo.run.env).toBe('vaults (module vaults.ts)');
    expect(pkg).not.toContain(dir);
    expect(readFileSync(join(dir, 'pkg-module', 'README.md'), 'utf8')).not.toContain(dir);

    // Moved away: report says so, export still builds the memory from the run's copy.
    renameSync(envFile, join(dir, 'vaults-moved.ts'));
    expect((await automemo('report', run)).err).toMatch(/vaults\.ts is gone \(moved or deleted since the run started\); the run's copy of it \(run-module\/env\) is used/);
    const moved = await automemo('export', run, '--out', join(dir, 'pkg-moved'), '--native', 'source');
    expect(moved.code, moved.err).toBe(0);
    expect(existsSync(join(dir, 'pkg-moved', 'memory', 'memory.json'))).toBe(true);
  }, 240_000);

  it('by data file: baselines, search, report, resume, eval, export', async () => {
    const spec = `data:${dataFile}`;
    const base = await automemo('baselines', '--env', spec, '--programs', 'no-memory,bm25', '--out', join(dir, 'base-data'), '--json');
    expect(base.code, base.err).toBe(0);
    const [none, bm25] = JSON.parse(base.out) as { score: number }[];
    expect(bm25?.score).toBeGreaterThan(none?.score as number);
    const run = join(dir, 'run-data');
    const searched = await automemo('search', '--env', spec, '--budget', '1', '--no-test', '--out', run);
    expect(searched.code, searched.err).toBe(0);
    expect((await automemo('report', run)).out).toMatch(/env\s+data:.*team-notes\.jsonl — offline: answer-containment/);
    const resumed = await automemo('search', '--resume', '--out', run, '--budget', '2');
    expect(resumed.code, resumed.err).toBe(0);
    expect((await automemo('eval', '--env', spec, '--program', 'bm25', '--out', join(dir, 'eval-data'))).code).toBe(0);
    // The data file moved: the run's copy of it stands in.
    renameSync(dataFile, join(dir, 'team-notes-moved.jsonl'));
    const exported = await automemo('export', run, '--out', join(dir, 'pkg-data'), '--native', 'source');
    expect(exported.code, exported.err).toBe(0);
    expect(exported.err).toMatch(/the data .*team-notes\.jsonl cannot be read now .*; using the run's copy of it \(run-data\/env\)/);
    expect(JSON.parse(readFileSync(join(dir, 'pkg-data', 'package.json'), 'utf8')).automemo.run.env).toBe('data:team-notes.jsonl');
  }, 240_000);
});
