// npm run bench:eval — evaluation throughput on one machine and through Redis, in one run (ratios, because this
// machine is noisy): the baselines (all seven programs) on LoCoMo's test split, and on one web site, with
//   in this process   evaluation on the command's own event loop (--workers 0)
//   1 worker          one local worker process (--workers 1)
//   2 workers         two local worker processes (--workers 2)
//   2 redis workers   two `automemo worker --queue` processes on a local Redis (--queue redis://…)
// Each row first evaluates the seven programs on the train split on the same executor (the warm-up: workers start,
// open the environment, compile; the embedding cache is warm after the first row), then on the test split: new
// tasks, so no agent outcome is cached anywhere, which is the throughput a search sees on new programs. Scores must
// be identical in every row (deterministic offline agents). Target (issue 17): on this 2-core machine, 2 local
// workers give at least 1.6× the throughput of 1 on LoCoMo. A LoCoMo pass takes seconds and this machine is noisy
// (±3% from run to run), so LoCoMo's "1 worker" and "2 workers" rows run `--repeat` times (default 3), alternating,
// and the ratio is the median of each repetition's; web rows take minutes each and run once.
// Usage: npm run bench:eval [-- --envs locomo,web:code] [--repeat 3]
// An entry, as index.js and cli/main.ts are: the API it runs is the automemo an environment module's `import 'automemo'` gets.
import '../api/running.ts';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openNamed } from '../api/environments.ts';
import { withHost } from '../api/host.ts';
import { workerNodeFlags } from '../api/worker-count.ts';
import { createExecutor } from '../api/workers.ts';
import { InProcessExecutor } from '../engine/jobs/in-process.ts';
import { runEvaluations } from '../engine/jobs/run-programs.ts';
import { resolveModels } from '../foundation/llm/models.ts';
import { BASELINES, resolveProgram } from '../memo-programs/registry.ts';
import { repoRoot } from '../foundation/paths.ts';
import { startRedis } from '../test/support/redis-server.ts';
import { median, table } from './stats.ts';

const { values } = parseArgs({ options: { envs: { type: 'string' }, repeat: { type: 'string' } } });
const repeat = Number(values.repeat ?? 3);
if (!Number.isInteger(repeat) || repeat < 1 || repeat > 20)
  throw new Error(`--repeat must be a whole number from 1 to 20; got ${values.repeat}`);
const envs = (values.envs ?? 'locomo,web:code').split(',').reduce<string[]>((acc, part) => {
  // "web:code" holds a colon of its own; a name without one continues the previous spec's options.
  if (acc.length && !/^(locomo|web|visual|data)(:|$)/.test(part)) acc[acc.length - 1] += `,${part}`;
  else acc.push(part);
  return acc;
}, []);
const work = mkdtempSync(join(tmpdir(), 'bench-eval-'));
const redis = await startRedis();
/** `automemo worker --queue` processes of the Redis row. */
const REDIS_WORKERS = 2;

function startWorkers(n: number): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: n }, () => {
      // Started as a pool of as many local workers would be (the same Node flags).
      // A data file given with --envs is opened by the workers only under a folder they serve: its own.
      const roots = envs
        .filter((e) => e.startsWith('data:'))
        .flatMap((e) => ['--env-root', dirname(resolve(e.slice(5)))]);
      const child = spawn(
        process.execPath,
        [
          '--no-node-snapshot',
          ...workerNodeFlags(n),
          join(repoRoot, 'bin', 'automemo.js'),
          'worker',
          '--queue',
          redis.url,
          ...roots,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      return new Promise<ChildProcess>((resolve) => {
        let out = '';
        child.stdout?.on('data', (d) => {
          out += d;
          if (out.includes('serving')) resolve(child);
        });
      });
    }),
  );
}

interface Row {
  env: string;
  how: string;
  /** Which repetition of the row (1 for rows that run once). */
  rep: number;
  /** The warm-up on the train split: workers start, environment opened in each. */
  firstSeconds: number;
  /** The test split on the same workers: new tasks, nothing cached. */
  seconds: number;
  scores: string;
}
const rows: Row[] = [];
/** The Node flags a row's worker processes run with (none in this process). */
const flags = (where: { workers?: number; queue?: string }) =>
  (where.queue ? workerNodeFlags(REDIS_WORKERS) : where.workers ? workerNodeFlags(where.workers) : []).join(' ');
const models = resolveModels({}, {});

async function measure(spec: string, how: string, where: { workers?: number; queue?: string }, rep = 1): Promise<void> {
  await withHost(models, async (services) => {
    const { env, source } = await openNamed(spec, {
      models,
      images: services.images,
      seed: 0,
      onNote: () => undefined,
    });
    const jobs = await createExecutor(where, { env, source, openSeed: 0, services, onNote: () => undefined });
    const programs = BASELINES.map((name) => ({ name, path: resolveProgram(name).path }));
    const pass = async (split: 'train' | 'test') => {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const r = await runEvaluations(
        programs,
        env,
        split,
        services,
        join(work, `${spec.replace(/\W/g, '-')}-${how.replace(/\W/g, '-')}-${split}`),
        {
          ...(jobs.executor instanceof InProcessExecutor ? {} : { jobs: { executor: jobs.executor, env: jobs.ref } }),
        },
      );
      if (r.failures.length)
        process.stderr.write(`${spec} ${how}: ${r.failures.map((f) => `${f.name}: ${f.reason}`).join('; ')}\n`);
      const times = r.rows.map((x) => `${x.name} ${(x.result.elapsedMs / 1000).toFixed(1)}`).join(', ');
      const used = process.cpuUsage(cpu);
      return {
        hostCpu: (used.user + used.system) / 1e6,
        seconds: (performance.now() - started) / 1000,
        scores: r.rows.map((x) => `${x.name}=${x.result.score?.toFixed(4)}`).join(' '),
        times,
      };
    };
    try {
      const first = await pass('train');
      const second = await pass('test');
      rows.push({
        env: spec,
        how,
        rep,
        firstSeconds: first.seconds,
        seconds: second.seconds,
        scores: `${first.scores} | ${second.scores}`,
      });
      process.stdout.write(
        `${spec} ${how}${rep > 1 ? ` (repetition ${rep})` : ''} (${jobs.executor.where}${flags(where) ? `, workers run with ${flags(where)}` : ''}): warm-up (train) ${first.seconds.toFixed(1)} s, test ${second.seconds.toFixed(1)} s; ` +
          // Evaluations overlap where jobs run in parallel: each one's wall time counts its wait in the queue.
          `this process's CPU ${second.hostCpu.toFixed(1)} s; evaluation wall times (s): ${second.times}\n`,
      );
    } finally {
      await jobs.executor.close();
      await env.close?.();
    }
  });
}

try {
  for (const env of envs) {
    await measure(env, 'in this process', { workers: 0 });
    await measure(env, '1 worker', { workers: 1 });
    await measure(env, '2 workers', { workers: 2 });
    const workers = await startWorkers(REDIS_WORKERS);
    try {
      await measure(env, '2 redis workers', { queue: redis.url });
    } finally {
      for (const w of workers) w.kill('SIGTERM');
    }
    for (let rep = 2; env === 'locomo' && rep <= repeat; rep++) {
      await measure(env, '1 worker', { workers: 1 }, rep);
      await measure(env, '2 workers', { workers: 2 }, rep);
    }
  }
} finally {
  await redis.stop();
  rmSync(work, { recursive: true, force: true });
}

process.stdout.write('\n');
const out: string[][] = [];
for (const env of envs) {
  const of = rows.filter((r) => r.env === env);
  const same = new Set(of.map((r) => r.scores)).size === 1;
  for (const r of of) {
    // Each repetition against the 1-worker row of the same repetition.
    const one = of.find((x) => x.how === '1 worker' && x.rep === r.rep) ?? of.find((x) => x.how === '1 worker');
    const label = r.rep > 1 ? `${r.how} (${r.rep})` : r.how;
    out.push([
      env,
      label,
      r.firstSeconds.toFixed(1),
      r.seconds.toFixed(1),
      one ? (one.firstSeconds / r.firstSeconds).toFixed(2) : '—',
      one ? (one.seconds / r.seconds).toFixed(2) : '—',
      same ? 'same' : 'DIFFER',
    ]);
  }
}
process.stdout.write(
  `${table([['env', 'evaluations', 'warm-up (train) s', 'test s', 'vs 1 worker (warm-up)', 'vs 1 worker (test)', 'scores'], ...out])}\n`,
);
const locomo = rows.filter((r) => r.env === 'locomo');
const ratios = [...new Set(locomo.map((r) => r.rep))].flatMap((rep) => {
  const one = locomo.find((r) => r.how === '1 worker' && r.rep === rep);
  const two = locomo.find((r) => r.how === '2 workers' && r.rep === rep);
  return one && two ? [one.seconds / two.seconds] : [];
});
if (ratios.length) {
  process.stdout.write(
    `\nLoCoMo: 2 local workers give ${median(ratios).toFixed(2)}× the throughput of 1 on the test split, workers started (median of ${ratios.length}: ${ratios.map((r) => r.toFixed(2)).join(', ')}; target ≥ 1.6×)\n`,
  );
}
process.exit(0);
