// Two evaluations into one --out would interleave their evidence (11 lines for 6 + 5 tasks): `eval` and `baselines`
// lock their folder. A second call is refused, naming the holder; a lock left by a process that is gone is taken over.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { baselines, evaluate } from '../../api/evaluate.ts';
import { resolveModels } from '../../foundation/llm/models.ts';
import { repoRoot } from '../../foundation/paths.ts';
import { UsageError } from '../../foundation/usage-error.ts';

const offline = resolveModels({}, {});
const work = mkdtempSync(join(tmpdir(), 'evaluate-out-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const env = join(repoRoot, 'examples', 'vault-env', 'env.ts');
const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').length;

it('a second eval or baselines into the same --out is refused while the first runs; the first keeps its own lines', async () => {
  const out = join(work, 'res');
  // The others are called while the first is evaluating (from its progress callback): it holds the folder then.
  let later: Promise<PromiseSettledResult<unknown>[]> | undefined;
  const first = evaluate({
    env,
    program: 'bm25',
    out,
    tasks: 6,
    models: offline,
    onProgress: () => {
      later ??= Promise.allSettled([evaluate({ env, program: 'bm25', out, tasks: 5, models: offline }), baselines({ env, programs: ['no-memory'], out, tasks: 5, models: offline })]);
    },
  });
  const [a] = await Promise.allSettled([first]);
  const [b, c] = (await later) ?? [];
  expect(a.status).toBe('fulfilled');
  for (const r of [b, c]) {
    expect(r.status).toBe('rejected');
    expect((r as PromiseRejectedResult).reason).toBeInstanceOf(UsageError);
    expect(String((r as PromiseRejectedResult).reason)).toMatch(/res is in use by another eval or baselines in this process/);
  }
  expect(lines(join(out, 'bm25', 'tasks.jsonl'))).toBe(6);
  // Released: the next call takes the folder.
  await evaluate({ env, program: 'bm25', out, tasks: 5, models: offline });
});

it('names another process that holds the folder, and takes over the lock of one that is gone', async () => {
  const out = join(work, 'held');
  mkdirSync(out, { recursive: true });
  const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
  try {
    writeFileSync(join(out, 'lock'), String(holder.pid));
    await expect(evaluate({ env, program: 'bm25', out, tasks: 2, models: offline })).rejects.toThrow(new RegExp(`held is in use by process ${holder.pid}`));
  } finally {
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
  }
  const r = await evaluate({ env, program: 'bm25', out, tasks: 2, models: offline });
  expect(r.tasks).toHaveLength(2);
});
