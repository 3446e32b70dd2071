// The web environment as a user runs it (through the CLI's dispatcher, in this process): eval with screenshots stored
// as evidence files, an offline search end to end against a model server, and errors. On a clean clone the first run collects the site's training episodes in Chromium.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { automemoInProcess } from '../support/cli.ts';
import { expectModelSearchWithImages } from '../support/image-analysis.ts';

const out = mkdtempSync(join(tmpdir(), 'web-cli-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('automemo with --env web', () => {
  // Through the dispatcher in this process, as the search below: a process start is seconds of CPU, and the real
  // binary's own behaviour (its flag, signals, exit codes) is test/cli/search.test.ts's subject.
  it('evaluates a program and stores the screenshots as files beside the evidence', async () => {
    const r = await automemoInProcess(
      'eval',
      '--env',
      'web:code',
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
    expect(r.out).toContain('web — mode: offline; reward: task success');
    expect(r.out).toMatch(/trajectory-retrieval\s+[01]\.\d{3}/);
    // A seeded sample of 5 of the 30 validation tasks: some template of the site is in it.
    expect(r.out).toMatch(/code\/[a-z-]+/);
    const dir = join(out, 'eval', 'trajectory-retrieval');
    const lines = readFileSync(join(dir, 'tasks.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(5);
    for (const l of lines) {
      expect(l.trajectory.steps.at(-1).action).toMatch(/^ANSWER; /);
      expect(l.trajectory.files.some((f: string) => f.endsWith('.jpg'))).toBe(true);
      for (const f of l.trajectory.files) expect(existsSync(join(dir, f)), f).toBe(true);
    }
  }, 600_000);

  it('runs a model search end to end and journals it; the analyses see the screenshots as image parts', async () => {
    // Without the test-split phase: on web it took three minutes of this test's four (every evaluation in Chromium).
    await expectModelSearchWithImages('web:code', 'web', join(out, 'search'));
  }, 900_000);

  it('exits 2 naming an unknown site or a data folder it cannot use', async () => {
    const f = await automemoInProcess('eval', '--env', 'web:code,casino', '--program', 'no-memory');
    expect(f.code).toBe(2);
    expect(f.err).toContain('unknown web site casino');
    const d = await automemoInProcess('eval', '--env', 'web', '--program', 'no-memory', '--data', out);
    expect(d.code).toBe(2);
    expect(d.err).toContain('serves its own sites');
  }, 300_000);
});
