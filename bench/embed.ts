// npm run bench:embed — the offline embedder (USE-lite), today's path beside the new ones, in one run (ratios:
// this machine is shared and noisy):
//   1. texts/s of each backend — tfjs (TF.js WebAssembly, the path every vector came from before), onnx (ONNX
//      Runtime, fp32) and onnx-int8 — with 1 worker thread and with one per core, no cache, on two workloads:
//      a. generated dialogue turns, sent as programs send them (calls of 64, cut into jobs of up to 16 similar
//         lengths);
//      b. LoCoMo's own: the jobs a cold evaluation of the baselines on LoCoMo's test split sent to the pool
//         (recorded first, in this process; every --locomo-every-th job is replayed): turns, programs' notes and
//         whole sessions, one query per question, mostly 1–4 texts per job — what `automemo baselines --env
//         locomo` waits on.
//      With CPU time per text (this process's, all threads: it hardly moves when other jobs share the cores, so
//      its ratio is the steadier one), the pool's utilisation (worker-time busy / threads × wall time) and model
//      load time. Rows run --repeat times (default 3), alternating, and each ratio is the median of each
//      repetition's (other jobs on this machine swing single rows by ±40%);
//   2. how close each backend's vectors are to TF.js's (cosine over the same texts);
//   3. a cold `automemo baselines --env data:<file>` on a generated 10,000-turn dialogue benchmark (written into a
//      temporary folder this bench creates and removes): its wall clock with an empty cache, and again with only
//      the embedding cache kept — the share spent embedding is 1 − warm/cold. Scores must be equal in both runs;
//   4. the pool while sandboxes wait: three embedding programs evaluated in this process on a generated
//      2,000-turn benchmark, cold; how busy the pool's workers were while any program had embedding work waiting.
// Targets (issue 31): the default backend at ≥ 10× tfjs's texts/s; the cold 10,000-turn run within 5 minutes.
// Usage: npm run bench:embed [-- --texts 320] [--repeat 3] [--turns 10000] [--backends tfjs,onnx,onnx-int8]
//        [--locomo-every 3] [--no-locomo] [--no-baselines]
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { openNamed } from '../api/environments.ts';
import { withHost } from '../api/host.ts';
import { runEvaluations } from '../engine/jobs/run-programs.ts';
import { resolveModels } from '../foundation/llm/models.ts';
import { resolveProgram } from '../memo-programs/registry.ts';
import { repoRoot } from '../foundation/paths.ts';
import { EMBED_BACKENDS, type EmbedBackend, embedBackendFromEnv } from '../sandbox/primitives/embed-backend.ts';
import { embedPool } from '../sandbox/primitives/embed-pool.ts';
import { dialogueDataJsonl, dialogueTexts } from './dialogue-data.ts';
import { embedRate, jobsRate, type RateRow } from './embed-rate.ts';
import { everyNth, recordLocomoJobs } from './locomo-jobs.ts';
import { fmt, median, table } from './stats.ts';

const { values } = parseArgs({
  options: {
    texts: { type: 'string' },
    repeat: { type: 'string' },
    turns: { type: 'string' },
    backends: { type: 'string' },
    'locomo-every': { type: 'string' },
    'no-locomo': { type: 'boolean' },
    'no-baselines': { type: 'boolean' },
  },
});
const Args = z.object({
  texts: z.coerce.number().int().min(16).max(20_000).default(320),
  repeat: z.coerce.number().int().min(1).max(20).default(3),
  turns: z.coerce.number().int().min(500).max(100_000).default(10_000),
  locomoEvery: z.coerce.number().int().min(1).max(100).default(3),
  backends: z
    .string()
    .default('tfjs,onnx,onnx-int8')
    .transform((s) => s.split(','))
    .pipe(z.array(z.enum(['tfjs', 'onnx', 'onnx-int8'])).min(1)),
});
const args = Args.parse({
  texts: values.texts,
  repeat: values.repeat,
  turns: values.turns,
  backends: values.backends,
  locomoEvery: values['locomo-every'],
});
const defaultBackend = embedBackendFromEnv();
const cores = availableParallelism();

// ── 1 and 2: texts/s and closeness ──────────────────────────────────────────────────────────────────────────
const threadCounts = [...new Set([1, cores])];
const sampleTexts = dialogueTexts(
  dialogueDataJsonl({ worlds: 4, sessionsPerWorld: 10, turnsPerSession: 20, questionsPerWorld: 5, seed: 7 }),
).slice(0, args.texts);
console.log(`bench:embed — ${cores} cores; default backend here: ${defaultBackend}\n`);
const generated = await rates((backend, threads) => embedRate(backend, threads, sampleTexts));
console.log(
  `a. ${sampleTexts.length} generated dialogue turns (mean ${fmt(sampleTexts.reduce((n, t) => n + t.length, 0) / sampleTexts.length, 0)} characters), in calls of 64:`,
);
console.log(rateTable(generated));

let locomo: (RateRow & { rep: number })[] | undefined;
if (!values['no-locomo']) {
  const work = mkdtempSync(join(tmpdir(), 'bench-embed-locomo-'));
  try {
    const recorded = await recordLocomoJobs(defaultBackend, join(work, 'cache'), join(work, 'run'));
    const jobs = everyNth(recorded.jobs, args.locomoEvery);
    const texts = jobs.flat();
    locomo = await rates((backend, threads) => jobsRate(backend, threads, jobs));
    console.log(
      `\nb. LoCoMo's own: a cold evaluation of the baselines on its test split sent ${recorded.jobs.length} jobs, ${recorded.jobs.flat().length} texts (${fmt(recorded.seconds, 1)} s on ${defaultBackend}); ` +
        `1 job in ${args.locomoEvery} replayed: ${jobs.length} jobs, ${texts.length} texts ` +
        `(mean ${fmt(texts.length / Math.max(1, jobs.length), 1)} per job, ${fmt(texts.reduce((n, t) => n + t.length, 0) / Math.max(1, texts.length), 0)} characters per text):`,
    );
    console.log(rateTable(locomo));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Every backend at every thread count, --repeat times, alternating. */
async function rates(
  rate: (backend: EmbedBackend, threads: number) => Promise<RateRow>,
): Promise<(RateRow & { rep: number })[]> {
  const rows: (RateRow & { rep: number })[] = [];
  for (let rep = 1; rep <= args.repeat; rep++) {
    for (const threads of threadCounts) {
      for (const backend of args.backends) rows.push({ ...(await rate(backend, threads)), rep });
    }
  }
  return rows;
}

/** Each repetition's texts/s (or texts per CPU second) against tfjs's in the same repetition, median over repetitions. */
function ratio(
  rows: (RateRow & { rep: number })[],
  backend: EmbedBackend,
  threads: number,
  by: 'wall' | 'cpu' = 'wall',
): number | undefined {
  const speed = (r: RateRow) => (by === 'wall' ? r.textsPerSecond : r.texts / r.cpuSeconds);
  const per = rows
    .filter((r) => r.backend === backend && r.threads === threads)
    .flatMap((r) => {
      const base = rows.find((b) => b.backend === 'tfjs' && b.threads === threads && b.rep === r.rep);
      return base ? [speed(r) / speed(base)] : [];
    });
  return per.length ? median(per) : undefined;
}

function rateTable(rows: (RateRow & { rep: number })[]): string {
  const reference = rows.find((r) => r.backend === 'tfjs');
  const cosines = (r: RateRow) =>
    reference ? r.vectors.map((v, i) => dot(v, reference.vectors[i] as Float32Array)) : [];
  return table([
    [
      'backend',
      'threads',
      'texts/s (median)',
      'each repetition',
      '× tfjs (median)',
      'CPU ms/text',
      '× tfjs by CPU',
      'pool busy',
      'load s',
      'cos vs tfjs: mean',
      'min',
    ],
    ...threadCounts.flatMap((threads) =>
      args.backends.map((backend) => {
        const rs = rows.filter((r) => r.backend === backend && r.threads === threads);
        const x = ratio(rows, backend, threads);
        const xCpu = ratio(rows, backend, threads, 'cpu');
        const cos = cosines(rs[0] as RateRow);
        return [
          `${backend} (${EMBED_BACKENDS[backend].label})`,
          threads,
          fmt(median(rs.map((r) => r.textsPerSecond)), 1),
          rs.map((r) => fmt(r.textsPerSecond, 0)).join(' '),
          x === undefined ? '-' : `${fmt(x, 1)}×`,
          fmt(median(rs.map((r) => (1000 * r.cpuSeconds) / r.texts)), 1),
          xCpu === undefined ? '-' : `${fmt(xCpu, 1)}×`,
          `${fmt(100 * median(rs.map((r) => r.utilisation)), 0)}%`,
          fmt(median(rs.map((r) => r.loadSeconds))),
          cos.length ? fmt(cos.reduce((a, b) => a + b, 0) / cos.length, 6) : '-',
          cos.length ? fmt(Math.min(...cos), 6) : '-',
        ];
      }),
    ),
  ]);
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

// ── 3: a cold `baselines` on a generated 10,000-turn benchmark ─────────────────────────────────────────────
if (!values['no-baselines']) {
  const work = mkdtempSync(join(tmpdir(), 'bench-embed-'));
  try {
    const turnsPerSession = 20;
    const sessionsPerWorld = 25;
    const worlds = Math.max(1, Math.round(args.turns / (turnsPerSession * sessionsPerWorld)));
    const file = join(work, 'generated-dialogue.jsonl');
    writeFileSync(file, dialogueDataJsonl({ worlds, sessionsPerWorld, turnsPerSession, questionsPerWorld: 20 }));
    const turns = worlds * sessionsPerWorld * turnsPerSession;
    console.log(
      `\nbaselines on a generated ${turns.toLocaleString('en')}-turn benchmark (${worlds * 20} questions), embedding backend ${defaultBackend}:`,
    );
    const cold = await baselines(file, join(work, 'cache-cold'), join(work, 'run-cold'));
    // The same run with only the embedding cache kept: what is left is everything but embedding.
    const warmCache = join(work, 'cache-warm');
    if (existsSync(join(work, 'cache-cold', 'embeddings')))
      cpSync(join(work, 'cache-cold', 'embeddings'), join(warmCache, 'embeddings'), { recursive: true });
    const warm = await baselines(file, warmCache, join(work, 'run-warm'));
    console.log(cold.table);
    console.log(
      table([
        ['run', 'wall s', 'minutes'],
        ['cold (empty cache)', fmt(cold.seconds, 1), fmt(cold.seconds / 60)],
        ['embeddings cached', fmt(warm.seconds, 1), fmt(warm.seconds / 60)],
      ]),
    );
    console.log(`share of the cold run spent embedding: ${fmt(100 * (1 - warm.seconds / cold.seconds), 0)}%`);
    console.log(
      `scores equal in both runs: ${cold.scores === warm.scores ? 'yes' : `NO\n${cold.scores}\n${warm.scores}`}`,
    );
    console.log(`target ≤ 5 minutes cold: ${cold.seconds <= 300 ? 'met' : 'NOT met'}`);
    await poolWhileEvaluating(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

console.log('');
for (const [name, rows] of [
  ['generated turns', generated],
  ["LoCoMo's jobs", locomo],
] as const) {
  if (!rows) continue;
  for (const backend of args.backends.filter((b) => b !== 'tfjs')) {
    for (const threads of threadCounts) {
      const x = ratio(rows, backend, threads);
      const xCpu = ratio(rows, backend, threads, 'cpu');
      if (x === undefined || xCpu === undefined) continue;
      console.log(
        `${name}: ${backend}${backend === defaultBackend ? ' (the default)' : ''} at ${threads} thread${threads > 1 ? 's' : ''}: ${fmt(x, 1)}× tfjs's texts/s (target ≥ 10×: ${x >= 10 ? 'met' : 'NOT met'}); ${fmt(xCpu, 1)}× by CPU time`,
      );
    }
  }
}

/** Runs the CLI's `baselines` on the data file with its own cache folder; its wall clock and score lines. */
function baselines(
  file: string,
  cacheDir: string,
  outDir: string,
): Promise<{ seconds: number; table: string; scores: string }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--no-node-snapshot', join(repoRoot, 'bin', 'automemo.js'), 'baselines', '--env', `data:${file}`, '--out', outDir],
    {
      env: { ...process.env, AUTOMEMO_CACHE_DIR: cacheDir, AUTOMEMO_EMBED_BACKEND: defaultBackend },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`automemo baselines exited with ${code}:\n${out}`));
      const tableText = out
        .slice(0, out.indexOf('\nby scenario') >= 0 ? out.indexOf('\nby scenario') : undefined)
        .trim();
      // The score column of each program row (timings differ between runs, scores must not).
      const scores = tableText
        .split('\n')
        .filter((l) => /^\S+\s+\d\.\d{3}\s/.test(l))
        .map((l) => l.split(/\s+/).slice(0, 2).join(' '))
        .join('; ');
      resolve({ seconds: (performance.now() - started) / 1000, table: tableText, scores });
    });
  });
}

/** Part 4: dense, g-memory and omni-simplemem evaluated here, one after another, on a cold 2,000-turn benchmark. */
async function poolWhileEvaluating(work: string): Promise<void> {
  const file = join(work, 'generated-2000.jsonl');
  writeFileSync(
    file,
    dialogueDataJsonl({ worlds: 4, sessionsPerWorld: 25, turnsPerSession: 20, questionsPerWorld: 20, seed: 3 }),
  );
  process.env.AUTOMEMO_CACHE_DIR = join(work, 'cache-in-process');
  const models = resolveModels({}, {});
  await withHost(models, async (services) => {
    const { env } = await openNamed(`data:${file}`, {
      models,
      images: services.images,
      seed: 0,
      onNote: () => undefined,
    });
    const pool = embedPool(defaultBackend);
    const before = pool.stats();
    const started = performance.now();
    const programs = ['dense', 'g-memory', 'omni-simplemem'].map((name) => ({ name, path: resolveProgram(name).path }));
    const r = await runEvaluations(programs, env, 'test', services, join(work, 'in-process'));
    const wall = performance.now() - started;
    const after = pool.stats();
    await env.close?.();
    const demand = after.demandMs - before.demandMs;
    console.log(
      `\nthe pool while sandboxes wait (${programs.map((p) => p.name).join(', ')} evaluated in this process on 2,000 cold turns, ${after.size} workers): ` +
        `evaluation ${fmt(wall / 1000, 1)} s, embedding work waiting or running ${fmt(demand / 1000, 1)} s of it (${fmt((100 * demand) / wall, 0)}%), ` +
        `workers busy ${fmt((100 * (after.busyMs - before.busyMs)) / (after.size * demand), 0)}% of that time; ${after.texts - before.texts} texts in ${after.jobs - before.jobs} jobs` +
        (r.failures.length ? `; failures: ${r.failures.map((f) => f.name).join(', ')}` : ''),
    );
  });
}
