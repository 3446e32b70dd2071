// The visual environment as a user runs it (through the CLI's dispatcher, in this process): eval with image evidence,
// an offline search end to end against a model server, errors.
// Both use the mazes family, which needs no OCR and draws its catalog in a fraction of a second: on a clean clone the
// microtext family read every crop with OCR (85 s of this file's 120), and the scenes family's catalog took 7 s of
// CPU to draw, once per command; each family is covered in-process under test/envs/visual/. The training episodes
// the eval collects are the ones the search then finds cached.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { automemoInProcess } from '../support/cli.ts';
import { expectModelSearchWithImages } from '../support/image-analysis.ts';

const out = mkdtempSync(join(tmpdir(), 'visual-cli-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('automemo with --env visual', () => {
  // Through the dispatcher in this process, as the search below: a process start is seconds of CPU, and the real
  // binary's own behaviour (its flag, signals, exit codes) is test/cli/search.test.ts's subject.
  it('evaluates a program and stores the images it showed as files beside the evidence', async () => {
    const r = await automemoInProcess(
      'eval',
      '--env',
      'visual:mazes',
      '--program',
      'trajectory-retrieval',
      '--split',
      'train',
      '--tasks',
      '5',
      '--out',
      join(out, 'eval'),
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('visual — mode: offline; reward: exact answer');
    expect(r.out).toMatch(/trajectory-retrieval\s+[01]\.\d{3}/);
    expect(r.out).toMatch(/mazes\/[a-z-]+/);
    const dir = join(out, 'eval', 'trajectory-retrieval');
    const lines = readFileSync(join(dir, 'tasks.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(5);
    for (const l of lines) {
      expect(l.trajectory.steps.at(-1).action).toMatch(/^<answer>/);
      for (const f of l.trajectory.files) expect(existsSync(join(dir, f)), f).toBe(true);
    }
  }, 300_000);

  it('runs a model search end to end and journals it; the analyses see the task images as image parts', async () => {
    await expectModelSearchWithImages('visual:mazes', 'visual', join(out, 'search'));
  }, 300_000);

  it('exits 2 naming an unknown family or a data folder it cannot use', async () => {
    const f = await automemoInProcess('eval', '--env', 'visual:microtext,knitting', '--program', 'no-memory');
    expect(f.code).toBe(2);
    expect(f.err).toContain('unknown visual family knitting');
    const d = await automemoInProcess('eval', '--env', 'visual', '--program', 'no-memory', '--data', out);
    expect(d.code).toBe(2);
    expect(d.err).toContain('renders its own tasks');
  });
});
