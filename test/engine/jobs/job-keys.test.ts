// Job keys on a shared Redis queue. Anyone who reaches Redis can put a job on it, under any id: a job id must not be
// one an outsider can derive (a rogue producer publishing first under it got an honest evaluation scored under a
// 1 ms CPU limit), a job changed on the queue or a job someone else put under the id is never taken for the one
// sent, limits are compared when a reply is checked, evidence files are checked against the result they come with,
// and whatever a worker gets wrong is infrastructure, never the program's failure. Two honest users who both run
// `eval --out res` against one queue do not collide.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNamed } from '../../../api/environments.ts';
import { withHost } from '../../../api/host.ts';
import { workerContext } from '../../../api/workers.ts';
import type { Environment } from '../../../engine/environment/contract.ts';
import type { EnvSource } from '../../../engine/environment/registry.ts';
import type { EvaluationResult } from '../../../engine/evaluate/evaluate.ts';
import { environmentHash } from '../../../engine/jobs/env-hash.ts';
import { evalJob, evaluateByJob } from '../../../engine/jobs/evaluate-job.ts';
import type { EnvRef, EvalJob } from '../../../engine/jobs/job.ts';
import { QUEUE_NAME } from '../../../engine/jobs/queue-names.ts';
import { serveQueue } from '../../../engine/jobs/queue-worker.ts';
import { RedisQueueExecutor } from '../../../engine/jobs/redis-queue.ts';
import { connectionOptions, parseRedisUrl } from '../../../engine/jobs/redis-url.ts';
import { runEvaluations } from '../../../engine/jobs/run-programs.ts';
import { type JobContext, runEvalJob } from '../../../engine/jobs/run-job.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { repoRoot } from '../../../foundation/paths.ts';
import { type CompiledProgram, compileProgram } from '../../../sandbox/compile.ts';
import type { HostServices } from '../../../sandbox/primitives/index.ts';
import { ToolchainError } from '../../../sandbox/toolchain-error.ts';
import { bin, cliEnv } from '../../support/cli.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';

const offline = resolveModels({}, {});
const work = mkdtempSync(join(tmpdir(), 'job-keys-'));
const envModule = join(repoRoot, 'examples', 'vault-env', 'env.ts');
const bm25 = join(repoRoot, 'memo-programs', 'baselines', 'bm25.ts');
const roots = [join(repoRoot, 'examples')];
let redis: TestRedis;

interface Setup {
  env: Environment;
  ref: EnvRef;
  program: CompiledProgram;
  services: HostServices;
  queue: Queue;
  /** The context honest workers serve with (and the rogue ones that tamper with an honest run's reply). */
  context: JobContext;
}

/**
 * The vault environment, bm25, a worker context on the test's Redis, and a queue handle for the rogue: one for the
 * file (each test starts its own workers; an environment opened costs a second or more).
 */
let setup: Setup;
let releaseHost = () => undefined as void;
let hostDone: Promise<void> = Promise.resolve();

beforeAll(async () => {
  redis = await startRedis();
  setup = await new Promise<Setup>((ready, fail) => {
    hostDone = withHost(offline, async (services) => {
      const { env, source } = await openNamed(envModule, {
        models: offline,
        images: services.images,
        seed: 0,
        onNote: () => undefined,
      });
      const compiled = await compileProgram({ entryPath: bm25 });
      if (!compiled.ok) throw new Error('bm25 does not compile');
      const queue = new Queue(QUEUE_NAME, { connection: connectionOptions(parseRedisUrl(redis.url)) });
      try {
        const held = new Promise<void>((r) => (releaseHost = r));
        ready({
          env,
          ref: { source: source as EnvSource, openSeed: 0, hash: environmentHash(env, source) },
          program: compiled.program,
          services,
          queue,
          context: workerContext(offline, services, () => undefined, { roots }),
        });
        await held;
      } finally {
        await queue.close();
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

const onQueue = (run: (s: Setup) => Promise<void>): Promise<void> => run(setup);

const honestWorker = () => serveQueue({ url: redis.url, context: setup.context });
const cpuFailures = (r: EvaluationResult) =>
  r.tasks.filter((t) => /used more than 1 ms of CPU/.test(t.programError ?? '')).length;

/** Every id an outsider derives from what it knows of a job: its key, automemo's version, the environment's hash. */
function guessedIds(job: EvalJob): string[] {
  const digest = (parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return [
    job.key,
    `${job.key}#${digest([job.version, job.env.hash]).slice(0, 16)}`,
    `${job.key}#${digest([job.version, job.env.hash, job.program.hash]).slice(0, 16)}`,
  ];
}

describe('a rogue producer', () => {
  it('publishing first, under the ids it can derive, a job with a 1 ms CPU limit: the honest evaluation is scored as without it', async () => {
    await onQueue(async ({ env, ref, program, services, queue }) => {
      const worker = await honestWorker();
      const executor = await RedisQueueExecutor.connect(redis.url);
      try {
        const clean = await evaluateByJob(
          executor,
          evalJob({ key: 'eval/clean/x', program, env: ref, split: 'test', seed: 1 }),
          { evidenceDir: join(work, 'clean') },
          env,
          services.images,
        );
        expect(clean.score).toBeGreaterThan(0.5);
        const job = evalJob({ key: 'eval/victim/x', program, env: ref, split: 'test', seed: 1 });
        const poisoned = { ...job, limits: { callCpuMs: 1 } };
        for (const id of guessedIds(job)) await queue.add('evaluate', poisoned, { jobId: id });
        // The rogue's jobs are served first.
        while ((await queue.getJobCountByTypes('waiting', 'active', 'prioritized')) > 0)
          await new Promise((r) => setTimeout(r, 20));
        const result = await evaluateByJob(executor, job, { evidenceDir: join(work, 'victim') }, env, services.images);
        expect(cpuFailures(result)).toBe(0);
        expect(result.score).toBe(clean.score);
      } finally {
        await executor.close();
        await worker.close();
      }
    });
  });

  it('changing a job on the queue after it was sent: the reply is not taken for the job sent, and it is infrastructure', async () => {
    await onQueue(async ({ env, ref, program, services, queue }) => {
      const executor = await RedisQueueExecutor.connect(redis.url);
      let worker: Awaited<ReturnType<typeof honestWorker>> | undefined;
      try {
        const job = evalJob({ key: 'eval/changed/x', program, env: ref, split: 'test', seed: 1 });
        const run = evaluateByJob(executor, job, { evidenceDir: join(work, 'changed') }, env, services.images).then(
          (r) => r,
          (e: Error) => e,
        );
        // No worker yet: the job waits, and the rogue, who reads Redis, rewrites it.
        let waiting: Awaited<ReturnType<Queue['getJobs']>> = [];
        while (!(waiting = await queue.getJobs(['waiting', 'prioritized'])).some((j) => j.data?.key === job.key))
          await new Promise((r) => setTimeout(r, 20));
        for (const j of waiting)
          if (j.data?.key === job.key) await j.updateData({ ...j.data, limits: { callCpuMs: 1 } });
        worker = await honestWorker();
        const outcome = await run;
        expect(outcome).toBeInstanceOf(ToolchainError);
        expect((outcome as Error).message).toMatch(/not the job sent/);
      } finally {
        await executor.close();
        await worker?.close();
      }
    });
  });

  it('putting a job of its own under the id of a finished one: a resumed producer never takes it for its own', async () => {
    await onQueue(async ({ env, ref, program, services, queue }) => {
      const worker = await honestWorker();
      const salt = 'a run of ours';
      try {
        const job = evalJob({ key: 'search/run/n1/train/0/x', program, env: ref, split: 'test', seed: 1 });
        const first = await RedisQueueExecutor.connect(redis.url, { salt });
        try {
          await evaluateByJob(first, job, { evidenceDir: join(work, 'resumed-1') }, env, services.images);
        } finally {
          await first.close();
        }
        // The rogue sees the finished job's id in Redis and puts its own job there.
        const taken = (await queue.getCompleted()).find((j) => j.data?.key === job.key);
        if (!taken?.id) throw new Error('the first evaluation left no job');
        const id = taken.id;
        await taken.remove();
        await queue.add('evaluate', { ...job, limits: { callCpuMs: 1 } }, { jobId: id });
        while ((await queue.getJobCountByTypes('waiting', 'active', 'prioritized')) > 0)
          await new Promise((r) => setTimeout(r, 20));
        const again = await RedisQueueExecutor.connect(redis.url, { salt });
        try {
          const run = evaluateByJob(again, job, { evidenceDir: join(work, 'resumed-2') }, env, services.images);
          await expect(run).rejects.toBeInstanceOf(ToolchainError);
          await expect(run).rejects.toThrow(/holds another job under the id/);
        } finally {
          await again.close();
        }
      } finally {
        await worker.close();
      }
    });
  });
});

const flipped = (line: { reward: number }) =>
  JSON.stringify({ ...line, reward: line.reward === 1 ? 0 : 1, success: line.reward !== 1 });

/** A worker that runs each job honestly, then changes what it sends back with `tamper`. */
async function tamperingWorker(tamper: (out: Awaited<ReturnType<typeof runEvalJob>>) => unknown): Promise<Worker> {
  const w = new Worker(QUEUE_NAME, async (job) => tamper(await runEvalJob(job.data as EvalJob, setup.context)), {
    connection: connectionOptions(parseRedisUrl(redis.url)),
    name: 'rogue-host pid 666',
  });
  await w.waitUntilReady();
  return w;
}

describe('a rogue worker', () => {
  it("whose evidence is not its result's: refused as infrastructure, and none of it lands in the evidence folder", async () => {
    await onQueue(async ({ env, ref, program, services }) => {
      const executor = await RedisQueueExecutor.connect(redis.url);
      const cases: [string, (out: Awaited<ReturnType<typeof runEvalJob>>) => unknown][] = [
        // Every line says the task scored otherwise.
        [
          'rewards',
          (out) => ({
            ...out,
            evidence: out.evidence?.map((f) =>
              f.path === 'tasks.jsonl'
                ? {
                    ...f,
                    base64: Buffer.from(
                      Buffer.from(f.base64, 'base64')
                        .toString()
                        .split('\n')
                        .filter(Boolean)
                        .map((l) => flipped(JSON.parse(l) as { reward: number }))
                        .join('\n') + '\n',
                    ).toString('base64'),
                  }
                : f,
            ),
          }),
        ],
        // Lines of another evaluation's tasks.
        [
          'tasks',
          (out) => ({
            ...out,
            evidence: [
              {
                path: 'tasks.jsonl',
                base64: Buffer.from(`${JSON.stringify({ taskId: 'someone-else', world: 'w', reward: 1 })}\n`).toString(
                  'base64',
                ),
              },
            ],
          }),
        ],
        [
          'path',
          (out) => ({ ...out, evidence: [{ path: '../../escaped.txt', base64: Buffer.from('x').toString('base64') }] }),
        ],
      ];
      try {
        for (const [name, tamper] of cases) {
          const rogue = await tamperingWorker(tamper);
          try {
            const dir = join(work, `rogue-evidence-${name}`);
            const run = evaluateByJob(
              executor,
              evalJob({ key: `eval/evidence/${name}`, program, env: ref, split: 'test', seed: 1 }),
              { evidenceDir: dir },
              env,
              services.images,
            );
            await expect(run, name).rejects.toBeInstanceOf(ToolchainError);
            await expect(run, name).rejects.toThrow(/rogue-host pid 666/);
            expect(
              existsSync(join(dir, 'tasks.jsonl')) ? readFileSync(join(dir, 'tasks.jsonl'), 'utf8') : '',
              name,
            ).toBe('');
            expect(existsSync(join(work, 'escaped.txt'))).toBe(false);
          } finally {
            await rogue.close();
          }
        }
        // Through `eval`'s runner, the evidence path refusal is the infrastructure's, never the program's.
        const rogue = await tamperingWorker((out) => ({
          ...out,
          evidence: [{ path: '/etc/x', base64: '' }],
        }));
        try {
          const runs = await runEvaluations(
            [{ name: 'bm25', path: bm25 }],
            env,
            'test',
            services,
            join(work, 'rogue-eval'),
            { jobs: { executor, env: ref } },
          );
          expect(runs.failures).toEqual([expect.objectContaining({ name: 'bm25', infrastructure: true })]);
        } finally {
          await rogue.close();
        }
      } finally {
        await executor.close();
      }
    });
  });

  it("that runs a job under limits other than the job's: refused when the reply is checked", async () => {
    await onQueue(async ({ env, ref, program, services }) => {
      const executor = await RedisQueueExecutor.connect(redis.url);
      const worker = await serveQueue({
        url: redis.url,
        context: workerContext(offline, services, () => undefined, { roots, maxLimits: { callCpuMs: 1 } }),
      });
      try {
        const run = evaluateByJob(
          executor,
          evalJob({ key: 'eval/lower-limits', program, env: ref, split: 'test', seed: 1 }),
          { evidenceDir: join(work, 'lower-limits') },
          env,
          services.images,
        );
        await expect(run).rejects.toBeInstanceOf(ToolchainError);
        await expect(run).rejects.toThrow(/ran eval\/lower-limits under other limits \(callCpuMs 1, the job's 10000\)/);
      } finally {
        await worker.close();
        await executor.close();
      }
    });
  });
});

it('two honest users who both run `automemo eval --out res` against one queue each get their own evaluation', async () => {
  await onQueue(async () => {
    const worker = await honestWorker();
    try {
      const users = ['alice', 'bob'].map((u) => join(work, u));
      // At once, from two working folders, as two people on two machines would.
      const runs = await Promise.all(
        users.map((home, i) => {
          mkdirSync(home, { recursive: true });
          return cliIn(home, [
            'eval',
            '--env',
            envModule,
            '--program',
            'bm25',
            '--out',
            'res',
            '--tasks',
            String(6 - i),
            '--queue',
            redis.url,
          ]);
        }),
      );
      const codes = runs.map((r) => [
        r.code,
        r.err
          .split('\n')
          .filter((l) => /fail/.test(l))
          .join('\n'),
      ]);
      expect(codes).toEqual([
        [0, ''],
        [0, ''],
      ]);
      expect(
        users.map(
          (u) =>
            readFileSync(join(u, 'res', 'bm25', 'tasks.jsonl'), 'utf8')
              .trim()
              .split('\n').length,
        ),
      ).toEqual([6, 5]);
    } finally {
      await worker.close();
    }
  });
});

/** `automemo <args>` as a user runs it from `cwd`. */
function cliIn(cwd: string, args: string[]): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: cliEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, err }));
  });
}
