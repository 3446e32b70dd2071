// The visual environment as a user runs it (the search through the real binary): eval with image evidence, an offline search end to end, errors.
// Both use the scenes family, which needs no OCR: on a clean clone the microtext family read every crop with OCR
// (85 s of this file's 120); OCR and the other families are covered in-process under test/envs/visual/. The
// training episodes the eval collects are the ones the search then finds cached.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { automemoAsync, automemoInProcess, cliEnv } from '../support/cli.ts';
import { expectImagePartsWithinLimits, metaModelServer } from '../support/image-analysis.ts';

const out = mkdtempSync(join(tmpdir(), 'visual-cli-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('automemo with --env visual', () => {
  // Through the dispatcher in this process: the real binary runs the search below, and a process start is seconds on
  // a loaded machine.
  it('evaluates a program and stores the images it showed as files beside the evidence', async () => {
    const r = await automemoInProcess(
      'eval',
      '--env',
      'visual:scenes',
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
    expect(r.out).toMatch(/scenes\/[a-z-]+/);
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
    const run = join(out, 'search');
    const server = await metaModelServer();
    // The test-split phase learns from every training episode (36 more collected here); LoCoMo's demo covers it.
    const r = await automemoAsync(
      [
        'search',
        '--env',
        'visual:scenes',
        '--budget',
        '1',
        '--seeds',
        'trajectory-retrieval',
        '--meta',
        'model',
        '--clusters',
        'metadata',
        '--policy',
        'greedy',
        '--no-test',
        '--eval-fraction',
        '0.1',
        '--min-eval-tasks',
        '3',
        '--out',
        run,
      ],
      { ...cliEnv, OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1' },
    ).finally(() => server.close());
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('env visual:scenes (offline');
    expect(r.out).toMatch(/selected \(lcb\)\s+\S+: search validation [01]\.\d{3}/);
    expectImagePartsWithinLimits(server);
    const events = readFileSync(join(run, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.filter((e) => e.type === 'evaluation' && e.split === 'train').length).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(readFileSync(join(run, 'run.json'), 'utf8')).env.name).toBe('visual');
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
