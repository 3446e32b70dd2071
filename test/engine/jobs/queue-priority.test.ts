// Workers behind Redis take queued jobs in the order the local pool does: jobs without a task count (quick
// examinations) first, then the largest, so the last jobs of a batch are short.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openNamed } from '../../../api/environments.ts';
import { withHost } from '../../../api/host.ts';
import { workerContext } from '../../../api/workers.ts';
import type { EnvSource } from '../../../engine/environment/registry.ts';
import { environmentHash } from '../../../engine/jobs/env-hash.ts';
import { evalJob } from '../../../engine/jobs/evaluate-job.ts';
import { QUEUE_NAME } from '../../../engine/jobs/queue-names.ts';
import { serveQueue } from '../../../engine/jobs/queue-worker.ts';
import { priorityOf, RedisQueueExecutor } from '../../../engine/jobs/redis-queue.ts';
import { connectionOptions, parseRedisUrl } from '../../../engine/jobs/redis-url.ts';
import { resolveModels } from '../../../engine/llm/models.ts';
import { compileProgram } from '../../../sandbox/compile.ts';
import { repoRoot } from '../../../sandbox/paths.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';

const offline = resolveModels({}, {});
const work = mkdtempSync(join(tmpdir(), 'queue-priority-'));
let redis: TestRedis;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
  rmSync(work, { recursive: true, force: true });
});

it('gives larger jobs a higher BullMQ priority, within its range', () => {
  expect(priorityOf(500)).toBeLessThan(priorityOf(20));
  expect(priorityOf(0)).toBeLessThanOrEqual(2 ** 21 - 1);
  expect(priorityOf(1e12)).toBe(1);
});

it('a worker takes the queued jobs without a size first, then the largest', async () => {
  await withHost(offline, async (services) => {
    const envModule = join(repoRoot, 'examples', 'vault-env', 'env.ts');
    const { env, source } = await openNamed(envModule, { models: offline, images: services.images, seed: 0, onNote: () => undefined });
    const compiled = await compileProgram({ entryPath: join(repoRoot, 'memo-programs', 'baselines', 'bm25.ts') });
    if (!compiled.ok) throw new Error('bm25 does not compile');
    const ref = { source: source as EnvSource, openSeed: 0, hash: environmentHash(env, source) };
    const executor = await RedisQueueExecutor.connect(redis.url);
    const queue = new Queue(QUEUE_NAME, { connection: connectionOptions(parseRedisUrl(redis.url)) });
    const started: string[] = [];
    try {
      const sizes = [['small', 2], ['large', 9], ['unsized', undefined], ['middle', 5]] as const;
      const runs = sizes.map(([key, tasks]) =>
        executor.run(evalJob({ key, program: compiled.program, env: ref, split: 'test', seed: 1 }), { evidenceDir: join(work, key), ...(tasks ? { tasks } : {}) }),
      );
      // Every job is in Redis before a worker serves any.
      while ((await queue.getJobCountByTypes('waiting', 'prioritized')) < sizes.length) await new Promise((r) => setTimeout(r, 20));
      const worker = await serveQueue({ url: redis.url, context: workerContext(offline, services, () => undefined), onJob: (e) => e.phase === 'start' && started.push(e.key) });
      try {
        await Promise.all(runs);
      } finally {
        await worker.close();
      }
      expect(started).toEqual(['unsized', 'large', 'middle', 'small']);
    } finally {
      await queue.close();
      await executor.close();
      await env.close?.();
    }
  });
});
