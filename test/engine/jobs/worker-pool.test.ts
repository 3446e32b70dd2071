// Local worker processes as a search uses them: a job's score is the score it gets in this process; a worker killed
// under a job is replaced and the job retried, once; a job under which two workers die is the program's failure,
// with the reason; queued jobs start largest first; a quick examination reports as in this process.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNamed } from '../../../api/environments.ts';
import { withHost } from '../../../api/host.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import type { Environment } from '../../../engine/environment/contract.ts';
import type { EnvSource } from '../../../engine/environment/registry.ts';
import { environmentHash } from '../../../engine/jobs/env-hash.ts';
import { evalJob, evaluateByJob } from '../../../engine/jobs/evaluate-job.ts';
import { InProcessExecutor } from '../../../engine/jobs/in-process.ts';
import type { EnvRef } from '../../../engine/jobs/job.ts';
import { WorkerPool } from '../../../engine/jobs/worker-pool.ts';
import type { EvaluationResult } from '../../../engine/evaluate/evaluate.ts';
import { compileProgram, type CompiledProgram } from '../../../sandbox/compile.ts';
import { examineByJob, examJob } from '../../../engine/jobs/exam-job.ts';
import { readProgramFiles } from '../../../memo-programs/files.ts';
import { repoRoot } from '../../../foundation/paths.ts';
import type { HostServices } from '../../../sandbox/primitives/index.ts';

const offline = resolveModels({}, {});

const work = mkdtempSync(join(tmpdir(), 'worker-pool-'));
const envModule = join(repoRoot, 'examples', 'vault-env', 'env.ts');
const bin = join(repoRoot, 'bin', 'automemo.js');
let program: CompiledProgram;

async function compiled(path: string): Promise<CompiledProgram> {
  const r = await compileProgram({ entryPath: path });
  if (!r.ok) throw new Error('fixture does not compile');
  return r.program;
}

/** The vault environment opened here, as a search opens it, and its reference for workers. */
function withVault<T>(work: (env: Environment, ref: EnvRef, services: HostServices) => Promise<T>): Promise<T> {
  return withHost(offline, async (services) => {
    const { env, source } = await openNamed(envModule, {
      models: offline,
      images: services.images,
      seed: 0,
      onNote: () => undefined,
    });
    const ref: EnvRef = { source: source as EnvSource, openSeed: 0, hash: environmentHash(env, source) };
    try {
      return await work(env, ref, services);
    } finally {
      await env.close?.();
    }
  });
}

const scores = (r: EvaluationResult) => r.tasks.map((t) => `${t.taskId}=${t.reward}`).sort();

beforeAll(async () => {
  program = await compiled(join(repoRoot, 'test', 'engine', 'jobs', 'fixtures', 'slow-notes.ts'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('local worker processes', () => {
  it('score a job as this process does; a worker killed under it is replaced and the job retried once', async () => {
    await withVault(async (env, ref, services) => {
      const job = evalJob({ key: 'pool/a', program, env: ref, split: 'test', seed: 1 });
      const here = await evaluateByJob(
        new InProcessExecutor(env, services),
        job,
        { evidenceDir: join(work, 'here') },
        env,
        services.images,
      );
      const killed: number[] = [];
      const pool = new WorkerPool(1, { args: [bin, 'worker', '--ipc'] }, 1, (pid) => {
        // The first worker dies under the job (the program computes for a few hundred milliseconds before its first update).
        if (killed.length === 0) {
          killed.push(pid);
          process.kill(pid, 'SIGKILL');
        }
      });
      try {
        const there = await evaluateByJob(pool, job, { evidenceDir: join(work, 'there') }, env, services.images);
        expect(killed).toHaveLength(1);
        expect(scores(there)).toEqual(scores(here));
        expect(there.score).toBe(here.score);
        // The evidence is the run folder's, written by the worker as a local evaluation writes it.
        const lines = readFileSync(join(work, 'there', 'tasks.jsonl'), 'utf8')
          .trim()
          .split('\n');
        expect(lines).toHaveLength(here.tasks.length);
        expect(JSON.parse(readFileSync(join(work, 'there', 'summary.json'), 'utf8')).score).toBe(here.score);
        // The worker keeps the agent's outcomes, as this process does: the same payloads again are not rerun.
        const again = await evaluateByJob(
          pool,
          { ...job, key: 'pool/a-again' },
          { evidenceDir: join(work, 'again') },
          env,
          services.images,
        );
        expect(scores(again)).toEqual(scores(here));
        expect(env.info().deterministic).toBe(true);
        expect(again.tasks.every((t) => t.cached)).toBe(true);
      } finally {
        await pool.close();
      }
    });
  });

  it('a job under which two workers die is the program failure, with the reason; the jobs after it run on a fresh worker, those without a size first, then the largest, jobs of one size in the order given; quick-examines a program as this process does', async () => {
    await withVault(async (env, ref, services) => {
      const started: string[] = [];
      const deaths: number[] = [];
      const bm25 = await compiled(join(repoRoot, 'memo-programs', 'baselines', 'bm25.ts'));
      // Every job is queued in the tick the pool starts, before its worker can say it is ready: the order the workers
      // take them in is the pool's choice alone. One pool for all (a worker's start costs seconds).
      const pool = new WorkerPool(1, { args: [bin, 'worker', '--ipc'] }, 1, (pid, key) => {
        started.push(key);
        if (key === 'pool/killer') {
          deaths.push(pid);
          process.kill(pid, 'SIGKILL');
        }
      });
      try {
        const killer = evaluateByJob(
          pool,
          evalJob({ key: 'pool/killer', program, env: ref, split: 'test', seed: 1 }),
          { evidenceDir: join(work, 'killer') },
          env,
          services.images,
        );
        const sizes = [
          ['small', 2],
          ['large', 9],
          ['unsized', undefined],
          ['middle', 5],
          ['large-later', 9],
        ] as const;
        const sized = Promise.all(
          sizes.map(([key, tasks]) =>
            pool.run(evalJob({ key, program: bm25, env: ref, split: 'test', seed: 1 }), {
              evidenceDir: join(work, `sized-${key}`),
              ...(tasks ? { tasks } : {}),
            }),
          ),
        );
        const failed = await killer;
        expect(deaths).toHaveLength(2);
        expect(failed.score).toBe(0);
        expect(failed.tasks.length).toBeGreaterThan(0);
        expect(
          failed.tasks.every(
            (t) =>
              t.reward === 0 &&
              /killed its worker process 2 times \(killed by SIGKILL; killed by SIGKILL\)/.test(t.programError ?? ''),
          ),
        ).toBe(true);
        // Written to the evidence like any failed evaluation.
        expect(JSON.parse(readFileSync(join(work, 'killer', 'summary.json'), 'utf8')).stats.programFailed).toBe(
          failed.tasks.length,
        );
        await sized;
        // The killer (without a size, given first) is tried on two workers; the others follow on a third, in order.
        expect(started.filter((k) => k !== 'pool/killer')).toEqual([
          'unsized',
          'large',
          'large-later',
          'middle',
          'small',
        ]);
        const next = await evaluateByJob(
          pool,
          evalJob({ key: 'pool/next', program: bm25, env: ref, split: 'test', seed: 1 }),
          { evidenceDir: join(work, 'next') },
          env,
          services.images,
        );
        expect(next.score).toBeGreaterThan(0.5);
        // A quick examination on the same worker reports as in this process, naming the program's files where the
        // search keeps them (a test of its own paid a worker's start for it).
        for (const [name, path] of [
          ['good', join(repoRoot, 'memo-programs', 'baselines', 'bm25.ts')],
          ['throws', join(repoRoot, 'test', 'sandbox', 'fixtures', 'throws-at-line.ts')],
        ] as const) {
          const dir = join(work, `programs-${name}`);
          const files = readProgramFiles(path);
          mkdirSync(dir, { recursive: true });
          writeFileSync(join(dir, 'index.ts'), files['index.ts'] as string);
          const job = examJob({ key: `exam/${name}`, files, dir, env: ref, tasks: 5, seed: 0 });
          const here = await examineByJob(new InProcessExecutor(env, services), job);
          const there = await examineByJob(pool, job);
          expect(there.passed).toBe(here.passed);
          expect(there.payloads.map((p) => p.digest)).toEqual(here.payloads.map((p) => p.digest));
          expect(there.failure?.detail).toBe(here.failure?.detail);
          expect(JSON.stringify(there)).not.toContain('automemo-exam-');
        }
      } finally {
        await pool.close();
      }
    });
  });
});

it("a worker process's notes reach the user of the call that started it, once", async () => {
  const { evaluate } = await import('../../../api/evaluate.ts');
  const notes: string[] = [];
  await evaluate({
    env: join(repoRoot, 'test', 'engine', 'jobs', 'fixtures', 'noted-env.ts'),
    program: 'bm25',
    tasks: 2,
    workers: 1,
    out: join(work, 'noted'),
    models: offline,
    onNote: (m) => notes.push(m),
  });
  const loaded = notes.filter((m) => /noted-vault loaded in pid \d+/.test(m));
  // This process's own open, and the worker's.
  expect(loaded).toContain(`noted-vault loaded in pid ${process.pid}`);
  expect(loaded.filter((m) => !m.endsWith(`pid ${process.pid}`))).toHaveLength(1);
});
