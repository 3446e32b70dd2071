// An evaluation on a worker behind Redis reports its progress as a local one does: each world's start and end, and
// its tasks up to the last, through BullMQ's progress events; a malformed event from the queue is dropped.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openNamed } from '../../../api/environments.ts';
import { withHost } from '../../../api/host.ts';
import { workerContext } from '../../../api/workers.ts';
import type { ProgressEvent } from '../../../engine/evaluate/evaluate.ts';
import type { EnvSource } from '../../../engine/environment/registry.ts';
import { environmentHash } from '../../../engine/jobs/env-hash.ts';
import { evalJob, evaluateByJob } from '../../../engine/jobs/evaluate-job.ts';
import { parseProgress } from '../../../engine/jobs/job.ts';
import { serveQueue } from '../../../engine/jobs/queue-worker.ts';
import { RedisQueueExecutor } from '../../../engine/jobs/redis-queue.ts';
import { resolveModels } from '../../../engine/llm/models.ts';
import { compileProgram } from '../../../sandbox/compile.ts';
import { repoRoot } from '../../../sandbox/paths.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const offline = resolveModels({}, {});
const work = mkdtempSync(join(tmpdir(), 'queue-progress-'));
let redis: TestRedis;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
  rmSync(work, { recursive: true, force: true });
});

it('reaches the search through Redis: world start and end, and the last task of each world', async () => {
  await withHost(offline, async (services) => {
    const envModule = join(repoRoot, 'examples', 'vault-env', 'env.ts');
    const { env, source } = await openNamed(envModule, { models: offline, images: services.images, seed: 0, onNote: () => undefined });
    const worker = await serveQueue({ url: redis.url, context: workerContext(offline, services, () => undefined) });
    const executor = await RedisQueueExecutor.connect(redis.url);
    try {
      const compiled = await compileProgram({ entryPath: join(repoRoot, 'memo-programs', 'baselines', 'bm25.ts') });
      if (!compiled.ok) throw new Error('bm25 does not compile');
      const ref = { source: source as EnvSource, openSeed: 0, hash: environmentHash(env, source) };
      const events: ProgressEvent[] = [];
      const result = await evaluateByJob(executor, evalJob({ key: 'progress/a', program: compiled.program, env: ref, split: 'test', seed: 1 }), { evidenceDir: join(work, 'a'), onProgress: (e) => events.push(e) }, env, services.images);
      const worlds = (await env.worlds('test')).map((w) => w.id);
      expect(events.filter((e) => e.kind === 'world-start').map((e) => e.world)).toEqual(worlds);
      expect(events.filter((e) => e.kind === 'world-end').map((e) => e.world)).toEqual(worlds);
      const last = events.filter((e) => e.kind === 'task').at(-1);
      expect(last && last.kind === 'task' && last.done === last.total && last.total === result.tasks.length).toBe(true);
    } finally {
      await executor.close();
      await worker.close();
      await env.close?.();
    }
  });
});

it('drops what is not a progress event', () => {
  expect(parseProgress({ kind: 'task', world: 'w', taskId: 't', reward: 0.5, done: 1, total: 2 })).toBeDefined();
  expect(parseProgress({ kind: 'task', world: 'w', taskId: 't', reward: 7, done: 1, total: 2 })).toBeUndefined();
  expect(parseProgress({ kind: 'shell', command: 'rm -rf /' })).toBeUndefined();
  expect(parseProgress('x'.repeat(10))).toBeUndefined();
});
