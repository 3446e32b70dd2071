// `automemo eval` and `automemo baselines` as a user runs them.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultLocomoDir } from '../../envs/locomo/environment.ts';
import { repoRoot } from '../../foundation/paths.ts';
import { automemo, automemoInProcess } from '../support/cli.ts';

/** The three conversations a clone ships (the full set, where present, is ten: the same code, more of it). */
const SHIPPED = join(repoRoot, 'envs', 'locomo', 'data');

describe('automemo eval', () => {
  it('evaluates a named program on LoCoMo and writes evidence', () => {
    const out = mkdtempSync(join(tmpdir(), 'eval-'));
    try {
      const r = automemo('eval', '--env', 'locomo', '--data', SHIPPED, '--program', 'bm25', '--split', 'train', '--out', out);
      expect(r.code).toBe(0);
      expect(r.out).toContain('locomo — mode: offline; reward: evidence recall of the payload; budget 4000 chars');
      expect(r.out).toMatch(/bm25\s+0\.\d{3}\s+\d+/);
      expect(r.out).toContain('by scenario:');
      const summary = JSON.parse(readFileSync(join(out, 'bm25', 'summary.json'), 'utf8'));
      expect(summary.split).toBe('train');
      expect(summary.stats.tasks).toBeGreaterThan(50);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  // Through the dispatcher in this process (the binary's exit and output are the test above's): a process start is
  // seconds on a loaded machine.
  it('reads another folder of conversations with --data', async () => {
    const data = mkdtempSync(join(tmpdir(), 'locomo-data-'));
    try {
      const conv = JSON.parse(readFileSync(join(defaultLocomoDir(), '30.json'), 'utf8'));
      const { qa, ...conversation } = conv;
      writeFileSync(join(data, 'locomo10.json'), JSON.stringify([{ sample_id: 'conv-7', conversation, qa }]));
      cpSync(join(defaultLocomoDir(), 'README.md'), join(data, 'README.md'));
      // The program may be given alone, as `check` takes it.
      const r = await automemoInProcess('eval', 'no-memory', '--env', 'locomo', '--data', data, '--json', '--out', join(data, 'out'));
      expect(r.code).toBe(0);
      const res = JSON.parse(r.out);
      expect(res.worlds.map((w: { world: string }) => w.world)).toEqual(['conv-7']);
      expect(res.score).toBe(0);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  // Decided by the dispatcher before any work: it runs in this process, as `automemo eval` would.
  it('exits 2 naming the problem for an unknown program, environment or data folder', async () => {
    const p = await automemoInProcess('eval', '--env', 'locomo', '--program', 'nope');
    expect(p.code).toBe(2);
    expect(p.err).toContain('no memo program "nope"');
    expect(p.err).toContain('omni-simplemem');
    expect((await automemoInProcess('eval', '--env', 'locomo', '--program', 'dens')).err).toContain('no memo program "dens" (did you mean "dense"?)');
    const e = await automemoInProcess('eval', '--env', 'mars', '--program', 'bm25');
    expect(e.code).toBe(2);
    expect(e.err).toContain('"mars" is not a registered environment, and no installed package of that name was found');
    expect(e.err).toContain('registered environments: locomo, visual, web, data');
    const twice = await automemoInProcess('eval', 'dense', '--env', 'locomo', '--program', 'bm25');
    expect([twice.code, twice.err]).toEqual([2, expect.stringContaining('give the program once: "dense" and --program bm25')]);
    const split = await automemoInProcess('eval', 'bm25', '--env', 'locomo', '--split', 'valid');
    expect([split.code, split.err]).toEqual([2, expect.stringContaining('--split: validation (the tasks a search validates on) or test (held out); got "valid"')]);
    const file = await automemoInProcess('eval', 'bm25', '--env', './qa.jsonl');
    expect([file.code, file.err]).toEqual([2, expect.stringContaining('"./qa.jsonl" is a data file, not an environment: give it as data:./qa.jsonl')]);
    const none = await automemoInProcess('eval', '--env', 'locomo');
    expect([none.code, none.err]).toEqual([2, expect.stringContaining('give a program: automemo eval <name|path> --env <env>')]);
    const d = await automemoInProcess('eval', '--env', 'locomo', '--program', 'bm25', '--data', '/nonexistent');
    expect(d.code).toBe(2);
    expect(d.err).toContain('cannot read LoCoMo data folder /nonexistent');
  });
});

describe('automemo baselines', () => {
  it('prints one table for the chosen programs; one that does not compile is named after it, and the exit is 1', () => {
    const out = mkdtempSync(join(tmpdir(), 'baselines-'));
    try {
      const broken = join(out, 'broken.ts');
      writeFileSync(broken, "import { readFileSync } from 'node:fs';\nexport default readFileSync;\n");
      // One conversation of the three: the table, the failure named after it and the exit do not depend on how many.
      const data = join(out, 'locomo');
      mkdirSync(data);
      cpSync(join(defaultLocomoDir(), '26.json'), join(data, '26.json'));
      const r = automemo('baselines', '--env', 'locomo', '--data', data, '--split', 'train', '--programs', `no-memory,${broken},bm25`, '--out', join(out, 'run'));
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/program\s+score\s+payload chars\s+retrieve p50 ms/);
      expect(r.out).toMatch(/no-memory\s+0\.000/);
      expect(r.out).toMatch(/bm25\s+0\.\d{3}/);
      // The program after the broken one still ran; the failure is named below the table.
      expect(r.out).toContain(`${broken} failed: ${broken} does not compile:`);
      expect(r.out).toContain('Import "node:fs" is not allowed');
      expect(r.out.indexOf(`${broken} failed`)).toBeGreaterThan(r.out.search(/bm25\s+0\./));
      expect(r.out).toContain('2 of 3 programs finished');
      expect(JSON.parse(readFileSync(join(out, 'run', 'results.json'), 'utf8')).map((e: { error?: string }) => e.error === undefined)).toEqual([true, false, true]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
