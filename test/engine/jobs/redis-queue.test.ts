// Evaluations on workers behind Redis, as a search sees them: progress as a local one reports it (each world's start
// and end, its tasks up to the last, through BullMQ's progress events; a malformed event is dropped), and queued jobs
// taken in the local pool's order (jobs without a task count first, then the largest). And the queue as a trust
// boundary, both ways: a rogue producer cannot make an honest worker import a file, send a file's text back, or run
// past the worker's own limits; a rogue worker cannot get a program charged with its failure or a forged result
// accepted; a finished job for old data is never the answer for new data.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRIORITY_LIMIT, Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNamed } from '../../../api/environments.ts';
import { withHost } from '../../../api/host.ts';
import { type WorkerContextOptions, workerContext } from '../../../api/workers.ts';
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
import { resolveModels } from '../../../foundation/llm/models.ts';
import { type CompiledProgram, compileProgram } from '../../../sandbox/compile.ts';
import { ToolchainError } from '../../../sandbox/toolchain-error.ts';
import type { JobContext } from '../../../engine/jobs/run-job.ts';
import { repoRoot } from '../../../foundation/paths.ts';
import type { HostServices } from '../../../sandbox/primitives/index.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';

const offline = resolveModels({}, {});
const work = mkdtempSync(join(tmpdir(), 'redis-queue-'));
/** The folders honest workers here are started for: the example environments. */
const roots = [join(repoRoot, 'examples')];
const honest = (services: HostServices, more: WorkerContextOptions = {}) =>
  workerContext(offline, services, () => undefined, { roots, ...more });
let redis: TestRedis;

interface Shared {
  env: Environment;
  ref: EnvRef;
  program: CompiledProgram;
  services: HostServices;
  /** The context of an honest worker started for the example environments. */
  honest: JobContext;
}

interface Setup extends Shared {
  executor: RedisQueueExecutor;
}

/**
 * The vault environment, the bm25 baseline and an honest worker's context, one for the file (an environment opened
 * costs a second or more; each test starts its own workers).
 */
let shared: Shared;
let releaseHost = () => undefined as void;
let hostDone: Promise<void> = Promise.resolve();

beforeAll(async () => {
  redis = await startRedis();
  shared = await new Promise<Shared>((ready, fail) => {
    hostDone = withHost(offline, async (services) => {
      const { env, source } = await openNamed(join(repoRoot, 'examples', 'vault-env', 'env.ts'), {
        models: offline,
        images: services.images,
        seed: 0,
        onNote: () => undefined,
      });
      try {
        const compiled = await compileProgram({ entryPath: join(repoRoot, 'memo-programs', 'baselines', 'bm25.ts') });
        if (!compiled.ok) throw new Error('bm25 does not compile');
        const held = new Promise<void>((r) => (releaseHost = r));
        ready({
          env,
          ref: { source: source as EnvSource, openSeed: 0, hash: environmentHash(env, source) },
          program: compiled.program,
          services,
          honest: honest(services),
        });
        await held;
      } finally {
        await env.close?.();
      }
    }).catch(fail);
  });
});
afterAll(async () => {
  releaseHost();
  await hostDone;
  await redis?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** The file's environment and program, and an executor on the test's Redis (no worker yet). */
async function onQueue(run: (s: Setup) => Promise<void>): Promise<void> {
  const executor = await RedisQueueExecutor.connect(redis.url);
  try {
    await run({ ...shared, executor });
  } finally {
    await executor.close();
  }
}

it('reaches the search through Redis: world start and end, and the last task of each world', async () => {
  await onQueue(async ({ env, ref, program, services, executor }) => {
    const worker = await serveQueue({ url: redis.url, context: shared.honest });
    try {
      const events: ProgressEvent[] = [];
      const result = await evaluateByJob(
        executor,
        evalJob({ key: 'progress/a', program, env: ref, split: 'test', seed: 1 }),
        { evidenceDir: join(work, 'a'), onProgress: (e) => events.push(e) },
        env,
        services.images,
      );
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
  await onQueue(async ({ ref, program, executor }) => {
    const queue = new Queue(QUEUE_NAME, { connection: connectionOptions(parseRedisUrl(redis.url)) });
    const started: string[] = [];
    try {
      const sizes = [
        ['small', 2],
        ['large', 9],
        ['unsized', undefined],
        ['middle', 5],
      ] as const;
      const runs = sizes.map(([key, tasks]) =>
        executor.run(evalJob({ key, program, env: ref, split: 'test', seed: 1 }), {
          evidenceDir: join(work, key),
          ...(tasks ? { tasks } : {}),
        }),
      );
      // Every job is in Redis before a worker serves any.
      while ((await queue.getJobCountByTypes('waiting', 'prioritized')) < sizes.length)
        await new Promise((r) => setTimeout(r, 20));
      const worker = await serveQueue({
        url: redis.url,
        context: shared.honest,
        onJob: (e) => e.phase === 'start' && started.push(e.key),
      });
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

describe('a rogue producer and an honest worker', () => {
  it('never imports a module, nor reads data, outside the folders the worker was started for', async () => {
    await onQueue(async ({ ref, program, executor }) => {
      const outside = join(work, 'elsewhere');
      mkdirSync(outside, { recursive: true });
      const marker = join(outside, 'imported');
      const module = join(outside, 'env.mjs');
      writeFileSync(
        module,
        `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default { name: 'x', summary: 'x', load: () => ({}) };\n`,
      );
      writeFileSync(join(outside, 'secrets.jsonl'), 'TOPSECRET-aws-key = 12345\n');
      const worker = await serveQueue({ url: redis.url, context: shared.honest });
      try {
        const jobs = [
          {
            source: { spec: module, kind: 'module' as const, name: 'x', path: module },
            what: /does not open the environment module .*env\.mjs: it is not under a folder this worker serves/,
          },
          {
            source: {
              spec: join(repoRoot, 'scripts', 'ensure-install.mjs'),
              kind: 'module' as const,
              name: 'x',
              path: join(repoRoot, 'scripts', 'ensure-install.mjs'),
            },
            what: /ensure-install\.mjs: it is not under a folder this worker serves/,
          },
          {
            source: {
              spec: `data:${join(outside, 'secrets.jsonl')}`,
              kind: 'builtin' as const,
              name: 'data',
              arg: join(outside, 'secrets.jsonl'),
            },
            what: /does not open the data .*secrets\.jsonl: it is not under a folder this worker serves/,
          },
          {
            source: { spec: 'locomo', kind: 'builtin' as const, name: 'locomo' },
            data: outside,
            what: /does not open the data .*elsewhere: it is not under a folder this worker serves/,
          },
        ];
        for (const [i, j] of jobs.entries()) {
          const job = evalJob({
            key: `rogue/import/${i}`,
            program,
            env: { ...ref, source: j.source, ...(j.data ? { data: j.data } : {}) },
            split: 'test',
            seed: 1,
          });
          const run = executor.run(job, { evidenceDir: join(work, `rogue-${i}`) });
          await expect(run).rejects.toThrow(ToolchainError);
          await expect(run).rejects.toThrow(j.what);
        }
        expect(existsSync(marker)).toBe(false);
      } finally {
        await worker.close();
      }
    });
  });

  it("sends back why it cannot open data under its folders without the data's text", async () => {
    await onQueue(async ({ ref, program, services, executor }) => {
      const served = join(work, 'served');
      mkdirSync(served, { recursive: true });
      const creds = join(served, 'credentials');
      writeFileSync(creds, '[default]\naws_secret_access_key = TOPSECRET1234567890\n{"type": "TOPSECRET-type"}\n');
      const worker = await serveQueue({ url: redis.url, context: honest(services, { roots: [...roots, served] }) });
      try {
        const job = evalJob({
          key: 'rogue/read',
          program,
          env: { ...ref, source: { spec: `data:${creds}`, kind: 'builtin', name: 'data', arg: creds } },
          split: 'test',
          seed: 1,
        });
        const err = await executor.run(job, { evidenceDir: join(work, 'rogue-read') }).then(
          () => undefined,
          (e: Error) => e,
        );
        expect(err).toBeInstanceOf(ToolchainError);
        expect(err?.message).toMatch(
          /cannot open the environment data:.*credentials: dataset .* has no usable header line/,
        );
        expect(err?.message).not.toContain('TOPSECRET');
      } finally {
        await worker.close();
      }
    });
  });

  it("runs a job within the worker's own limits, whatever the job asks for", async () => {
    await onQueue(async ({ ref, services, executor }) => {
      const looping = await compileProgram({
        entryPath: join(repoRoot, 'test', 'sandbox', 'hostile', 'sync-infinite-loop.ts'),
      });
      if (!looping.ok) throw new Error('the looping program does not compile');
      const worker = await serveQueue({
        url: redis.url,
        context: honest(services, { maxLimits: { callCpuMs: 200, callWallMs: 2000 } }),
      });
      try {
        const job = {
          ...evalJob({ key: 'rogue/limits', program: looping.program, env: ref, split: 'test', seed: 1 }),
          limits: { callCpuMs: 3_600_000, callWallMs: 3_600_000, loadMs: 3_600_000, heapMb: 8192 },
        };
        const started = Date.now();
        const out = await executor.run(job, { evidenceDir: join(work, 'rogue-limits') });
        expect(Date.now() - started).toBeLessThan(20_000);
        expect(out.result?.worlds[0]?.updateErrors[0]?.message).toMatch(/used more than 200 ms of CPU/);
        // Past any worker's limits, a job is not even one.
        const absurd = { ...job, key: 'rogue/limits-absurd', limits: { callCpuMs: 1e12 } };
        await expect(executor.run(absurd, { evidenceDir: join(work, 'rogue-absurd') })).rejects.toThrow(
          /the job is malformed \(limits\.callCpuMs/,
        );
      } finally {
        await worker.close();
      }
    });
  });
});

/** A worker that answers every job with `reply` (or throws it), as a rogue one on the queue would. */
async function rogueWorker(reply: (data: { key: string }) => unknown): Promise<Worker> {
  const w = new Worker(QUEUE_NAME, async (job) => reply(job.data as { key: string }), {
    connection: connectionOptions(parseRedisUrl(redis.url)),
    name: 'rogue-host pid 666',
  });
  await w.waitUntilReady();
  return w;
}

describe('a rogue worker and an honest producer', () => {
  it("a reply without a result, with a program failure of its own making, with a forged result, or a throw: the worker's failure, naming it, never the program's", async () => {
    await onQueue(async ({ env, ref, program, services, executor }) => {
      const forged = {
        program: { entry: 'x', hash: program.hash },
        env: { name: 'vaults' },
        split: 'test',
        score: 1,
        stats: { tasks: 0, scored: 0, score: 1 },
        tasks: [],
        worlds: [],
        elapsedMs: 0,
      };
      const replies: [string, (d: { key: string }) => unknown, RegExp][] = [
        ['no result', (d) => ({ key: d.key, worker: 'rogue-host pid 666' }), /rogue-host pid 666.*returned no result/],
        [
          'program failure',
          (d) => ({ key: d.key, worker: 'rogue-host pid 666', programFailure: 'your program crashed me' }),
          /rogue-host pid 666.*says the program failed/,
        ],
        [
          'forged result',
          (d) => ({ key: d.key, worker: 'rogue-host pid 666', result: forged }),
          /rogue-host pid 666.*returned a result that is not this evaluation's.*: it has 0 of the job's \d+ tasks/,
        ],
        [
          'throws a string',
          () => {
            throw 'not even an Error';
          },
          /rogue-host pid 666.*failed rogue-worker\/throws-a-string/,
        ],
      ];
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      try {
        for (const [name, reply, message] of replies) {
          const rogue = await rogueWorker(reply);
          try {
            const job = evalJob({
              key: `rogue-worker/${name.replace(/ /g, '-')}`,
              program,
              env: ref,
              split: 'test',
              seed: 1,
            });
            const run = evaluateByJob(
              executor,
              job,
              { evidenceDir: join(work, `rogue-worker-${name}`) },
              env,
              services.images,
            );
            await expect(run, name).rejects.toThrow(message);
            await expect(run, name).rejects.toBeInstanceOf(ToolchainError);
          } finally {
            await rogue.close();
          }
        }
        // An evaluation in shards: the first shard's failure stops the others, which the rogue worker fails later.
        const file = join(work, 'four-worlds.jsonl');
        const world = (id: string) =>
          JSON.stringify({
            type: 'world',
            id,
            sessions: [{ time: '2024-03-04T09:00:00Z', turns: [{ id: 't', text: 'We picked Postgres.' }] }],
            questions: Array.from({ length: 6 }, (_, i) => ({
              id: `${id}-q${i}`,
              question: 'Which database?',
              answers: ['Postgres'],
            })),
          });
        writeFileSync(
          file,
          `${JSON.stringify({ type: 'dataset', name: 'four', scoring: 'answer-containment', trainShare: 0.3 })}\n${Array.from({ length: 4 }, (_, i) => world(`w${i}`)).join('\n')}\n`,
        );
        const data = await openNamed(`data:${file}`, {
          models: offline,
          images: services.images,
          seed: 0,
          onNote: () => undefined,
        });
        const rogue = await rogueWorker(() => {
          throw new Error('rogue says no');
        });
        try {
          const job = evalJob({
            key: 'rogue-worker/shards',
            program,
            env: { source: data.source, openSeed: 0, hash: environmentHash(data.env, data.source) },
            split: 'test',
            seed: 1,
          });
          await expect(
            evaluateByJob(executor, job, { evidenceDir: join(work, 'rogue-shards') }, data.env, services.images),
          ).rejects.toThrow(/rogue-host pid 666.*failed rogue-worker\/shards\/w\d: rogue says no/);
          // A job given up before it is waited for (a shard stopped by another's failure): its failure, later, is
          // nobody's to handle and must not surface as an unhandled rejection.
          const given = new AbortController();
          given.abort(new Error('stopped by another shard'));
          const late = evalJob({ key: 'rogue-worker/given-up', program, env: ref, split: 'test', seed: 1 });
          await expect(
            executor.run(late, { evidenceDir: join(work, 'rogue-given-up'), signal: given.signal }),
          ).rejects.toThrow('stopped by another shard');
          const queue = new Queue(QUEUE_NAME, { connection: connectionOptions(parseRedisUrl(redis.url)) });
          try {
            while (!(await queue.getFailed()).some((j) => j.id?.startsWith('rogue-worker/given-up')))
              await new Promise((r) => setTimeout(r, 20));
          } finally {
            await queue.close();
          }
          await new Promise((r) => setTimeout(r, 100));
        } finally {
          await rogue.close();
        }
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', onUnhandled);
      }
    });
  });
});

it('a job of the same key on changed data runs again: a finished result for old data is never the answer for new data', async () => {
  await withHost(offline, async (services) => {
    const file = join(work, 'served-data', 'notes.jsonl');
    mkdirSync(join(work, 'served-data'), { recursive: true });
    const world = (answer: string) =>
      JSON.stringify({
        type: 'world',
        id: 'w',
        speakers: ['Ana', 'Ben'],
        sessions: [
          {
            time: '2024-03-04T09:00:00Z',
            turns: [
              'We picked Postgres as our database.',
              'The staging server is kestrel.',
              'Carla joins next week.',
              'Lunch is at noon.',
            ].map((text, i) => ({ id: `t${i}`, speaker: 'Ana', text })),
          },
        ],
        questions: Array.from({ length: 12 }, (_, i) => ({
          id: `q${i}`,
          question: 'Which database did we pick?',
          answers: [answer],
        })),
      });
    const write = (answer: string) =>
      writeFileSync(
        file,
        `${JSON.stringify({ type: 'dataset', name: 'notes', scoring: 'answer-containment', trainShare: 0.3 })}\n${world(answer)}\n`,
      );
    const compiled = await compileProgram({ entryPath: join(repoRoot, 'memo-programs', 'baselines', 'bm25.ts') });
    if (!compiled.ok) throw new Error('bm25 does not compile');
    const executor = await RedisQueueExecutor.connect(redis.url);
    const worker = await serveQueue({
      url: redis.url,
      context: workerContext(offline, services, () => undefined, { roots: [join(work, 'served-data')] }),
    });
    try {
      const scoreWith = async (answer: string) => {
        write(answer);
        const { env, source } = await openNamed(`data:${file}`, {
          models: offline,
          images: services.images,
          seed: 0,
          onNote: () => undefined,
        });
        const ref: EnvRef = { source: source as EnvSource, openSeed: 0, hash: environmentHash(env, source) };
        const out = await executor.run(
          evalJob({ key: 'same/key', program: compiled.program, env: ref, split: 'test', seed: 1 }),
          { evidenceDir: join(work, `same-key-${answer}`) },
        );
        return out.result?.score;
      };
      expect(await scoreWith('Postgres')).toBe(1);
      expect(await scoreWith('MongoDB')).toBe(0);
    } finally {
      await worker.close();
      await executor.close();
    }
  });
});
