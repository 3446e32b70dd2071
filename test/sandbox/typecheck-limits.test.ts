// The type check has limits. A few hundred bytes of recursive type aliases kept TypeScript's checker busy for minutes
// and took gigabytes of the host's memory, on the thread of `check`, of a search and of a queue worker, and then
// passed. Now the check runs on a thread of its own under a time and a memory limit: a program over either fails its
// examination with that reason, on each of the three, and the next program is checked as before.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { check } from '../../api/check.ts';
import { openNamed } from '../../api/environments.ts';
import { withHost } from '../../api/host.ts';
import { workerContext } from '../../api/workers.ts';
import { environmentHash } from '../../engine/jobs/env-hash.ts';
import { examineByJob, examJob } from '../../engine/jobs/exam-job.ts';
import { InProcessExecutor } from '../../engine/jobs/in-process.ts';
import type { EnvRef } from '../../engine/jobs/job.ts';
import { serveQueue } from '../../engine/jobs/queue-worker.ts';
import { RedisQueueExecutor } from '../../engine/jobs/redis-queue.ts';
import { resolveModels } from '../../foundation/llm/models.ts';
import { repoRoot } from '../../foundation/paths.ts';
import type { QuickExamReport } from '../../sandbox/quick-exam.ts';
import { limitedTypeChecker } from '../../sandbox/typecheck-thread.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';

/**
 * The bomb: every ordering of nine names as a tuple type. The checker builds the 9! = 362,880 tuples of the union
 * and compares the literal against them; unbounded, that took over 90 s and most of a gigabyte here.
 */
const names = 'abcdefghi'.split('');
const BOMB = `import { defineMemo } from 'automemo/contract';
type Perm<T, U = T> = [T] extends [never] ? [] : T extends unknown ? [T, ...Perm<Exclude<U, T>>] : never;
type Order = Perm<${names.map((n) => `'${n}'`).join(' | ')}>;
const order: Order = [${names.map((n) => `'${n}'`).join(', ')}];
export default defineMemo({ update() { void order; }, retrieve: () => ({ text: '', images: [] }) });
`;

const offline = resolveModels({}, {});
const work = mkdtempSync(join(tmpdir(), 'typecheck-limits-'));
const bomb = join(work, 'bomb');
const normal = join(repoRoot, 'memo-programs', 'baselines', 'bm25.ts');
let redis: TestRedis;

beforeAll(async () => {
  mkdirSync(bomb, { recursive: true });
  writeFileSync(join(bomb, 'index.ts'), BOMB);
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
  rmSync(work, { recursive: true, force: true });
});

const interfaceCheck = (r: QuickExamReport) => r.checks.find((c) => c.name === 'interface');

/** Warms the checker's thread for these limits on a normal program, so a short time limit measures the bomb alone. */
const warm = (heapMb: number) => limitedTypeChecker().check(normal, undefined, { ms: 300_000, heapMb });

it('`check`: the bomb fails its examination over the time limit, and the next program is checked as before', async () => {
  await warm(1024);
  const started = Date.now();
  const report = await check({ program: bomb, models: offline, typecheckLimits: { ms: 2000, heapMb: 1024 } });
  expect(Date.now() - started).toBeLessThan(30_000);
  expect(report.passed).toBe(false);
  expect(interfaceCheck(report)?.message).toMatch(
    /the type check of this program went over its limit of 2 s and was stopped: its types are too costly to check/,
  );
  const after = await check({ program: normal, models: offline, typecheckLimits: { ms: 300_000, heapMb: 1024 } });
  expect(after.passed).toBe(true);
});

it('on a queue worker: the bomb fails its examination over the time limit', async () => {
  await withHost(offline, async (services) => {
    const { env, source } = await openNamed(join(repoRoot, 'examples', 'vault-env', 'env.ts'), {
      models: offline,
      images: services.images,
      seed: 0,
      onNote: () => undefined,
    });
    const ref: EnvRef = { source, openSeed: 0, hash: environmentHash(env, source) };
    await warm(1024);
    const worker = await serveQueue({
      url: redis.url,
      context: workerContext(offline, services, () => undefined, {
        roots: [join(repoRoot, 'examples')],
        typecheckLimits: { ms: 2000, heapMb: 1024 },
      }),
    });
    const executor = await RedisQueueExecutor.connect(redis.url);
    try {
      const report = await examineByJob(
        executor,
        examJob({ key: 'run/exam/bomb', files: { 'index.ts': BOMB }, dir: bomb, env: ref, tasks: 2, seed: 1 }),
      );
      expect(report.passed).toBe(false);
      expect(interfaceCheck(report)?.message).toMatch(/went over its limit of 2 s and was stopped/);
    } finally {
      await executor.close();
      await worker.close();
      await env.close?.();
    }
  });
});

it('in a search (an examination job in this process): the bomb fails its examination over the memory limit', async () => {
  await withHost(offline, async (services) => {
    const { env, source } = await openNamed(join(repoRoot, 'examples', 'vault-env', 'env.ts'), {
      models: offline,
      images: services.images,
      seed: 0,
      onNote: () => undefined,
    });
    const ref: EnvRef = { source, openSeed: 0, hash: environmentHash(env, source) };
    const executor = new InProcessExecutor(env, services, undefined, { typecheckLimits: { ms: 300_000, heapMb: 96 } });
    try {
      const started = Date.now();
      const report = await examineByJob(
        executor,
        examJob({ key: 'run/exam/bomb', files: { 'index.ts': BOMB }, dir: bomb, env: ref, tasks: 2, seed: 1 }),
      );
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(report.passed).toBe(false);
      expect(interfaceCheck(report)?.message).toMatch(/went over its limit of 96 MB of memory and was stopped/);
    } finally {
      await env.close?.();
    }
  });
});
