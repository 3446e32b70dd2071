// Evaluations on workers behind Redis, as a search sees them: progress as a local one reports it (each world's start
// and end, its tasks up to the last, through BullMQ's progress events; a malformed event is dropped), and queued jobs
// taken in the local pool's order (jobs without a task count first, then the largest).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRIORITY_LIMIT, Queue } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openNamed } from '../../../api/environments.ts';
import { withHost } from '../../../api/host.ts';
import { workerContext } from '../../../api/workers.ts';
import type { Environment } from '../../../engine/environment/contract.ts';
import type { EnvSource } from '../../../engine/environment/registry.ts';
import type { ProgressEvent } from '../../../engine/evaluate/evaluate.ts';
import { environmentHash } from '../../../engine/jobs/env-hash.ts';
import { queuePriority } from '../../../engine/jobs/executor.ts';
import { evalJob, evaluateByJob } from '../../../engine/jobs/evaluate-job.ts';
import { type EnvRef, parseProgress } from '../../../engine/jobs/job.ts';
import { QUEUE_NAME } from '../../../engine/jobs/queue-names.ts';
import { serveQueue } from '../../../engine/jobs/queue-worker.ts';
import { RedisQueueExecutor } from '../../../engine/jobs/redis-queue.ts';
import { connectionOptions, parseRedisUrl } from '../../../engine/jobs/redis-url.ts';
import { resolveModels } from '../../../engine/llm/models.ts';
import { type CompiledProgram, compileProgram } from '../../../sandbox/compile.ts';
import { repoRoot } from '../../../sandbox/paths.ts';
import type { HostServices } from '../../../sandbox/primitives/index.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';

const offline = resolveModels({}, {});
const work = mkdtempSync(join(tmpdir(), 'redis-queue-'));
let redis: TestRedis;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
  rmSync(work, { recursive: true, force: true });
});

interface Setup {
  env: Environment;
  ref: EnvRef;
  program: CompiledProgram;
  services: HostServices;
  executor: RedisQueueExecutor;
}

/** The vault environment and the bm25 baseline, and an executor on the test's Redis (no worker yet). */
function onQueue(run: (s: Setup) => Promise<void>): Promise<void> {
  return withHost(offline, async (services) => {
    const { env, source } = await openNamed(join(repoRoot, 'examples', 'vault-env', 'env.ts'), { models: offline, images: services.images, seed: 0, onNote: () => undefined });
    const compiled = await compileProgram({ entryPath: join(repoRoot, 'memo-programs', 'baselines', 'bm25.ts') });
    if (!compiled.ok) throw new Error('bm25 does not compile');
    const executor = await RedisQueueExecutor.connect(redis.url);
    try {
      await run({ env, ref: { source: source as EnvSource, openSeed: 0, hash: environmentHash(env, source) }, program: compiled.program, services, executor });
    } finally {
      await executor.close();
      await env.close?.();
    }
  });
}

it('reaches the search through Redis: world start and end, and the last task of each world', async () => {
  await onQueue(async ({ env, ref, program, services, executor }) => {
    const worker = await serveQueue({ url: redis.url, context: workerContext(offline, services, () => undefined) });
    try {
      const events: ProgressEvent[] = [];
      const result = await evaluateByJob(executor, evalJob({ key: 'progress/a', program, env: ref, split: 'test', seed: 1 }), { evidenceDir: join(work, 'a'), onProgress: (e) => events.push(e) }, env, services.images);
      const worlds = (await env.worlds('test')).map((w) => w.id);
      expect(events.filter((e) => e.kind === 'world-start').map((e) => e.world)).toEqual(worlds);
      expect(events.filter((e) => e.kind === 'world-end').map((e) => e.world)).toEqual(worlds);
      const last = events.filter((e) => e.kind === 'task').at(-1);
      expect(last && last.kind === 'task' && last.done === last.total && last.total === result.tasks.length).toBe(true);
    } finally {
      await worker.close();
    }
  });
});

it('drops what is not a progress event', () => {
  expect(parseProgress({ kind: 'task', world: 'w', taskId: 't', reward: 0.5, done: 1, total: 2 })).toBeDefined();
  expect(parseProgress({ kind: 'task', world: 'w', taskId: 't', reward: 7, done: 1, total: 2 })).toBeUndefined();
  expect(parseProgress({ kind: 'shell', command: 'rm -rf /' })).toBeUndefined();
  expect(parseProgress('x'.repeat(10))).toBeUndefined();
});

it('gives larger jobs a higher BullMQ priority, within its range', () => {
  expect(queuePriority({ tasks: 500 })).toBeLessThan(queuePriority({ tasks: 20 }));
  expect(queuePriority({ tasks: 0 })).toBeLessThanOrEqual(PRIORITY_LIMIT);
  expect(queuePriority({ tasks: 1e12 })).toBe(1);
});

it('a worker takes the queued jobs without a size first, then the largest', async () => {
  await onQueue(async ({ ref, program, services, executor }) => {
    const queue = new Queue(QUEUE_NAME, { connection: connectionOptions(parseRedisUrl(redis.url)) });
    const started: string[] = [];
    try {
      const sizes = [['small', 2], ['large', 9], ['unsized', undefined], ['middle', 5]] as const;
      const runs = sizes.map(([key, tasks]) => executor.run(evalJob({ key, program, env: ref, split: 'test', seed: 1 }), { evidenceDir: join(work, key), ...(tasks ? { tasks } : {}) }));
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
    }
  });
});
