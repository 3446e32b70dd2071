// An evaluation on several workers goes out as one job per group of worlds and comes back as the evaluation this
// process would return: same rewards in the same order, same statistics, one evidence folder with every task once.
// A shard that kills its worker twice makes the whole evaluation the program's failure; a stopped evaluation leaves
// no shard folder behind.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNamed } from '../../../api/environments.ts';
import { withHost } from '../../../api/host.ts';
import type { Environment } from '../../../engine/environment/contract.ts';
import type { EnvSource } from '../../../engine/environment/registry.ts';
import { environmentHash } from '../../../engine/jobs/env-hash.ts';
import { evalJob, evaluateByJob } from '../../../engine/jobs/evaluate-job.ts';
import { InProcessExecutor } from '../../../engine/jobs/in-process.ts';
import type { EnvRef } from '../../../engine/jobs/job.ts';
import { planShards, type Shard } from '../../../engine/jobs/shards.ts';
import { workerNodeFlags } from '../../../api/worker-count.ts';
import { WorkerPool } from '../../../engine/jobs/worker-pool.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { compileProgram, type CompiledProgram } from '../../../sandbox/compile.ts';
import { repoRoot } from '../../../foundation/paths.ts';
import type { HostServices } from '../../../sandbox/primitives/index.ts';

const offline = resolveModels({}, {});
const work = mkdtempSync(join(tmpdir(), 'shards-'));
const bin = join(repoRoot, 'bin', 'automemo.js');
let program: CompiledProgram;

const world = (id: string, tasks: number) => ({
  id,
  tasks: Array.from({ length: tasks }, (_, i) => ({ taskId: `${id}-${i}` })),
});

const ids = (plan: Shard[]) => plan.map((s) => s.worldIds);

describe('planShards', () => {
  it('groups worlds by task count, largest first to the lightest group, each group in the split order', () => {
    const worlds = [world('a', 158), world('b', 82), world('c', 162), world('d', 10)];
    expect(ids(planShards(worlds, 2))).toEqual([
      ['c', 'd'],
      ['a', 'b'],
    ]);
    expect(ids(planShards(worlds, 16))).toEqual([['c'], ['a'], ['b'], ['d']]);
    expect(ids(planShards(worlds, 1))).toEqual([['a', 'b', 'c', 'd']]);
  });

  it('leaves out worlds without a wanted task, and never makes more groups than worlds', () => {
    const worlds = [world('a', 5), world('b', 5), world('c', 5)];
    expect(planShards(worlds, 8, new Set(['a-1', 'c-0', 'c-2']))).toEqual([
      { worldIds: ['c'], tasks: 2 },
      { worldIds: ['a'], tasks: 1 },
    ]);
    expect(planShards(worlds, 8, new Set(['nothing']))).toEqual([]);
  });
});

/** LoCoMo opened here as a search opens it, and its reference for workers; a sample of a few tasks per world. */
function withLocomo<T>(
  run: (env: Environment, ref: EnvRef, services: HostServices, taskIds: string[]) => Promise<T>,
): Promise<T> {
  return withHost(offline, async (services) => {
    // The three conversations a clone ships: three worlds to split over two workers.
    const data = join(repoRoot, 'envs', 'locomo', 'data');
    const { env, source } = await openNamed('locomo', {
      models: offline,
      images: services.images,
      seed: 0,
      onNote: () => undefined,
      data,
    });
    const ref: EnvRef = { source: source as EnvSource, openSeed: 0, hash: environmentHash(env, source), data };
    const worlds = await env.worlds('test');
    const taskIds = worlds.flatMap((w) => w.tasks.slice(0, 6).map((t) => t.taskId));
    try {
      return await run(env, ref, services, taskIds);
    } finally {
      await env.close?.();
    }
  });
}

const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n');

/** What the test running now does when the pool sends a job to a worker. */
let onDispatch: (pid: number, key: string) => void = () => undefined;
let pool: WorkerPool | undefined;
/**
 * Two worker processes for the file (each costs seconds to start), as the CLI starts them on a two-core machine: with
 * the Node flags of workers that fill the cores. A worker killed under a job is replaced by the pool itself.
 */
const twoWorkers = () =>
  (pool ??= new WorkerPool(2, { args: [...workerNodeFlags(2, 2), bin, 'worker', '--ipc'] }, 1, (pid, key) =>
    onDispatch(pid, key),
  ));

beforeAll(async () => {
  const r = await compileProgram({ entryPath: join(repoRoot, 'memo-programs', 'baselines', 'bm25.ts') });
  if (!r.ok) throw new Error('bm25 does not compile');
  program = r.program;
});
afterAll(async () => {
  await pool?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('an evaluation split by world over workers', () => {
  it('returns what one job in this process returns, with one evidence folder holding every task once', async () => {
    await withLocomo(async (env, ref, services, taskIds) => {
      const job = evalJob({ key: 'shards/a', program, env: ref, split: 'test', seed: 1, taskIds });
      const here = await evaluateByJob(
        new InProcessExecutor(env, services),
        job,
        { evidenceDir: join(work, 'here') },
        env,
        services.images,
      );
      const sent: string[] = [];
      onDispatch = (_pid, key) => sent.push(key);
      const pool = twoWorkers();
      try {
        const dir = join(work, 'there');
        const there = await evaluateByJob(pool, job, { evidenceDir: dir }, env, services.images);
        expect(sent.sort()).toEqual(['shards/a/w0', 'shards/a/w1', 'shards/a/w2']);
        expect(there.tasks.map((t) => [t.taskId, t.world, t.reward])).toEqual(
          here.tasks.map((t) => [t.taskId, t.world, t.reward]),
        );
        expect(there.worlds.map((w) => w.world)).toEqual(here.worlds.map((w) => w.world));
        const {
          retrieveP50Ms: _a,
          retrieveP95Ms: _b,
          updateMsPerEpisode: _c,
          loadMs: _d,
          usage: _e,
          ...same
        } = there.stats;
        const {
          retrieveP50Ms: _f,
          retrieveP95Ms: _g,
          updateMsPerEpisode: _h,
          loadMs: _i,
          usage: _j,
          ...expected
        } = here.stats;
        expect(same).toEqual(expected);
        expect(Object.keys(there.stats.usage).sort()).toEqual(Object.keys(here.stats.usage).sort());
        // One folder, as a local evaluation writes it: every task once, every world once, the merged summary.
        expect(
          lines(join(dir, 'tasks.jsonl'))
            .map((l) => JSON.parse(l).taskId)
            .sort(),
        ).toEqual([...taskIds].sort());
        expect(lines(join(dir, 'worlds.jsonl'))).toHaveLength(3);
        expect(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')).score).toBe(here.score);
        expect(readdirSync(dir).sort()).toEqual(['summary.json', 'tasks.jsonl', 'worlds.jsonl']);
      } finally {
        onDispatch = () => undefined;
      }
    });
  });

  it('is the program failure when one shard kills its worker twice; a stopped evaluation leaves no shard folder', async () => {
    await withLocomo(async (env, ref, services, taskIds) => {
      const deaths: string[] = [];
      onDispatch = (pid, key) => {
        if (key.endsWith('/w1')) {
          deaths.push(key);
          process.kill(pid, 'SIGKILL');
        }
      };
      const pool = twoWorkers();
      try {
        const dir = join(work, 'killer');
        const failed = await evaluateByJob(
          pool,
          evalJob({ key: 'shards/killer', program, env: ref, split: 'test', seed: 1, taskIds }),
          { evidenceDir: dir },
          env,
          services.images,
        );
        expect(deaths).toEqual(['shards/killer/w1', 'shards/killer/w1']);
        expect(failed.tasks.map((t) => t.taskId).sort()).toEqual([...taskIds].sort());
        expect(
          failed.tasks.every((t) => t.reward === 0 && /killed its worker process 2 times/.test(t.programError ?? '')),
        ).toBe(true);
        expect(lines(join(dir, 'tasks.jsonl'))).toHaveLength(taskIds.length);
        expect(readdirSync(dir).filter((n) => n.startsWith('.shards-'))).toEqual([]);

        const stop = new AbortController();
        const stopped = join(work, 'stopped');
        const pending = evaluateByJob(
          pool,
          evalJob({ key: 'shards/stopped', program, env: ref, split: 'test', seed: 1, taskIds }),
          { evidenceDir: stopped, signal: stop.signal },
          env,
          services.images,
        );
        stop.abort(new Error('stopped by the test'));
        await expect(pending).rejects.toThrow('stopped by the test');
        expect(existsSync(stopped) ? readdirSync(stopped).filter((n) => n.startsWith('.shards-')) : []).toEqual([]);
      } finally {
        onDispatch = () => undefined;
      }
    });
  });
});
