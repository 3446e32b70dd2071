// A command over several programs keeps going when one of them meets a compiler that died (infrastructure, never
// the program's fault): the rows of those that finished, then the failure named. (A program that does not compile,
// and the exit code after the table, are in eval.test.ts, through the real command.)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

// esbuild reads ESBUILD_BINARY_PATH when it loads: the wrapper goes in front of the real binary before any import.
const scratch = await vi.hoisted(async () => (await import('../support/esbuild-service.ts')).esbuildWrapperDir());

import { baselinesText } from '../../cli/commands/baselines.ts';
import { runEvaluations } from '../../engine/jobs/run-programs.ts';
import { resolveProgram } from '../../memo-programs/registry.ts';
import { closeHostServices } from '../../sandbox/primitives/index.ts';
import { esbuildWrapper, killEsbuildService } from '../support/esbuild-service.ts';
import { offlineServices } from '../support/services.ts';
import { ToyEnvironment } from '../support/toy-env.ts';

const wrapper = esbuildWrapper(scratch);
const dirs = [scratch];
afterAll(async () => {
  await closeHostServices();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tmp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};

const programs = ['no-memory', 'trajectory-retrieval', 'bm25'].map((p) => resolveProgram(p));
const env = () => new ToyEnvironment({ maxChars: 2000, maxImages: 0 });

describe('baselines when the compiler dies', () => {
  it('a compiler that died between programs is restarted: every program gets its row', async () => {
    const runs = await runEvaluations(programs, env(), 'train', offlineServices(), tmp('baselines-'), {
      onProgram: async (name) => {
        if (name !== 'no-memory') await killEsbuildService();
      },
    });
    expect(runs.failures).toEqual([]);
    expect(runs.rows.map((r) => r.name)).toEqual(['no-memory', 'trajectory-retrieval', 'bm25']);
    expect(wrapper.starts()).toBeGreaterThanOrEqual(3);
  });

  it("a compiler that stays dead through its restarts fails that program only, named as infrastructure; the others' rows print", async () => {
    const out = tmp('baselines-');
    const runs = await runEvaluations(programs, env(), 'train', offlineServices(), out, {
      onProgram: async (name) => {
        if (name === 'trajectory-retrieval') {
          wrapper.down();
          await killEsbuildService();
        } else wrapper.up();
      },
    });
    expect(runs.rows.map((r) => r.name)).toEqual(['no-memory', 'bm25']);
    expect(runs.failures).toEqual([
      {
        name: 'trajectory-retrieval',
        infrastructure: true,
        reason: expect.stringMatching(
          /^infrastructure failure: the esbuild service failed 3 times, restarted each time/,
        ),
      },
    ]);
    const text = baselinesText(runs, 'results.json');
    expect(text).toMatch(/no-memory\s+0\.000/);
    expect(text).toMatch(/bm25\s+[01]\.\d{3}/);
    expect(text).toContain(
      "trajectory-retrieval failed (not the program's fault): infrastructure failure: the esbuild service failed 3 times",
    );
    expect(text).toContain('2 of 3 programs finished');
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results.map((r: { name: string; error?: string }) => [r.name, r.error === undefined])).toEqual([
      ['no-memory', true],
      ['trajectory-retrieval', false],
      ['bm25', true],
    ]);
  });
});
