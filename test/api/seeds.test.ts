// One seed per run, in every command: the split the environment opens with follows --seed unless --split-seed holds
// it, a run records its seeds, and whatever reopens the run (a resume, an export) opens the split it was made with.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { check, defineEnvironment, evaluate, exportRun, search } from '../../api/index.ts';
import { repoRoot } from '../../foundation/paths.ts';
import { ToyEnvironment } from '../support/toy-env.ts';

const dir = mkdtempSync(join(tmpdir(), 'api-seeds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The split seed of every opening, in order. */
const opened: number[] = [];
const probe = defineEnvironment({
  name: 'seed-probe',
  summary: 'records the seed it is opened with',
  load: (context) => {
    opened.push(context.seed);
    return new ToyEnvironment();
  },
});
const lastOpened = () => opened.at(-1);
const runInfo = (out: string) => JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { options: Record<string, unknown> };
const quick = { env: probe, budget: 0, seeds: ['bm25'], meta: 'offline', test: false } as const;

describe('--seed, one meaning', () => {
  it('a search opens the split of its seed, records its seeds, and a resume and an export reopen that split', async () => {
    const out = join(dir, 'seed-3');
    await search({ ...quick, out, seed: 3 });
    expect(lastOpened()).toBe(3);
    expect(runInfo(out).options).toMatchObject({ seed: 3, splitSeed: 3, sandboxSeed: 4 });

    await expect(search({ out, resume: true, seed: 5 })).rejects.toThrow('a resumed run keeps its seeds (seed 3, split seed 3)');
    await search({ out, resume: true, budget: 1 });
    expect(lastOpened()).toBe(3);

    await exportRun({ run: out, out: join(dir, 'pkg'), format: 'npm' });
    expect(lastOpened()).toBe(3);
  });

  it('--split-seed holds the split while the run seed varies', async () => {
    const out = join(dir, 'held');
    await search({ ...quick, out, seed: 7, splitSeed: 0 });
    expect(lastOpened()).toBe(0);
    expect(runInfo(out).options).toMatchObject({ seed: 7, splitSeed: 0, sandboxSeed: 8 });
  });

  it('eval and check open the same split a search of that seed did, or the one --split-seed names', async () => {
    await evaluate({ env: probe, program: 'bm25', seed: 3, out: join(dir, 'eval-3') });
    expect(lastOpened()).toBe(3);
    await evaluate({ env: probe, program: 'bm25', seed: 9, splitSeed: 3, out: join(dir, 'eval-held') });
    expect(lastOpened()).toBe(3);
    await check({ program: join(repoRoot, 'memo-programs', 'seeds', 'no-memory.ts'), env: probe, seed: 2 });
    expect(lastOpened()).toBe(2);
    await expect(evaluate({ env: probe, program: 'bm25', seed: -1 })).rejects.toThrow('seed: expected a whole number from 0 to 2147483647; got -1');
    await expect(check({ program: join(repoRoot, 'memo-programs', 'seeds', 'no-memory.ts'), splitSeed: 1.5 })).rejects.toThrow('splitSeed: expected a whole number from 0 to 2147483647; got 1.5');
  });
});
