// npm run bench:search — the offline search on benchmarks of different shapes (bench/benchmarks: LoCoMo, a procedural
// module with worlds, a data-file QA set, a multiple-choice set; none used to tune the offline agent). Per benchmark:
// every standard design and the root on the held-out test split; a search with the defaults (seeds screened
// automatically, offline meta agent); what it picked and how that scores on test against the best baseline and the
// best seed; how its steps went (no-op share of children, re-evaluations, whether a re-evaluation ever scored a sample
// twice); and what its validation could resolve; and, task by task on test, the pick's paired difference against the
// best standard design (mean and 95% interval). Then the criteria of issues 27 and 39, and the model rows: 8 model steps
// with --parallel 1 and 4 against a slow local model (calls and tokens per valid child), and a real model's recorded
// session replayed (bench/search-recorded.ts).
// Usage: npm run bench:search [-- --envs locomo,workshops --budget 12 --seeds 1 --policies ucb,greedy --dev --no-parallel]
//   --dev runs the development benchmarks (bench/benchmarks/dev, vault-env) instead: the ones the agent was tuned on.
// An entry, as index.js and cli/main.ts are: the API it runs is the automemo an environment module's `import 'automemo'` gets.
import '../api/running.ts';
import type { PolicyName } from '../engine/search/policies/index.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { evaluate, resolveModels, search, type SearchResult } from '../api/index.ts';
import { BASELINES, STANDARD_DESIGNS } from '../memo-programs/registry.ts';
import { closeHostServices } from '../sandbox/primitives/index.ts';
import { readJournal } from '../run-store/journal.ts';
import { pairedDifference, type PairedDifference } from '../engine/search/ties.ts';
import { BENCHMARKS, type BenchBenchmark, DEV_BENCHMARKS } from './benchmarks/index.ts';
import { parallelRows, printParallelRows } from './search-parallel.ts';
import { printRecordedRows, printSession3, recordedRows, session3Rows } from './search-recorded.ts';
import { fmt, table } from './stats.ts';

const { values } = parseArgs({
  options: {
    budget: { type: 'string' },
    seeds: { type: 'string' },
    envs: { type: 'string' },
    policies: { type: 'string' },
    dev: { type: 'boolean' },
    'no-parallel': { type: 'boolean' },
  },
});
const BUDGET = Number(values.budget ?? 12);
const SEEDS = Number(values.seeds ?? 1);
const POLICIES = (values.policies ?? 'ucb').split(',').filter(Boolean);
const CATALOGUE = values.dev ? DEV_BENCHMARKS : BENCHMARKS;
const CHOSEN = values.envs ? CATALOGUE.filter((b) => values.envs?.split(',').includes(b.name)) : CATALOGUE;
// Offline throughout, whatever the shell's AUTOMEMO_* variables say.
const OFFLINE = resolveModels({}, {});

interface Run {
  bench: string;
  policy: string;
  seed: number;
  summary: SearchResult;
  /** Test scores of the pick, the seeds and the tied. */
  pickTest: number;
  /** The pick's test reward per task. */
  pickTasks: Map<string, number>;
  /** The pick's design when it is a seed (a standard design), else the node id and "child". */
  pickName: string;
  seedTests: Record<string, number>;
  /** Children (valid, failed, no-op) and of them no-ops; re-evaluation steps; samples scored twice by one program. */
  children: number;
  noOps: number;
  reEvaluations: number;
  repeatedSamples: number;
  seconds: number;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);

/** The test score of every standard design and the root (the baselines), with each one's reward per task. */
async function baselineTests(
  env: string,
  work: string,
): Promise<{ scores: Record<string, number>; tasks: Map<string, Map<string, number>> }> {
  const scores: Record<string, number> = {};
  const tasks = new Map<string, Map<string, number>>();
  for (const program of [...new Set([...BASELINES, ...STANDARD_DESIGNS])]) {
    const r = await evaluate({
      env,
      program,
      split: 'test',
      models: OFFLINE,
      out: join(work, `baseline-${program}`),
      workers: 0,
    });
    scores[program] = r.score ?? 0;
    tasks.set(program, new Map(r.tasks.filter((t) => t.reward !== null).map((t) => [t.taskId, t.reward as number])));
  }
  return { scores, tasks };
}

/** A node's test reward per task, from the run's journal and evidence. */
function testRewards(runFolder: string, node: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of readJournal(join(runFolder, 'journal.jsonl')).events) {
    if (e.type !== 'evaluation' || e.split !== 'test' || e.node !== node || e.score === null) continue;
    for (const line of readFileSync(join(runFolder, e.evidence, 'tasks.jsonl'), 'utf8')
      .trim()
      .split('\n')) {
      const t = JSON.parse(line) as { taskId: string; reward: number | null };
      if (typeof t.reward === 'number') out.set(t.taskId, t.reward);
    }
  }
  return out;
}

/** Validation samples a program was scored on more than once (a deterministic environment must have none). */
function repeatedSamples(runFolder: string): number {
  const seen = new Map<string, Set<string>>();
  let repeated = 0;
  for (const e of readJournal(join(runFolder, 'journal.jsonl')).events) {
    if (e.type !== 'evaluation' || e.split !== 'train' || e.score === null) continue;
    const ids = readFileSync(join(runFolder, e.evidence, 'tasks.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { taskId: string }).taskId);
    const mine = seen.get(e.node) ?? new Set<string>();
    if (ids.some((id) => mine.has(id))) repeated++;
    for (const id of ids) mine.add(id);
    seen.set(e.node, mine);
  }
  return repeated;
}

async function searchOnce(b: BenchBenchmark, env: string, policy: string, seed: number, work: string): Promise<Run> {
  const t0 = Date.now();
  const out = join(work, `run-${policy}-${seed}`);
  // The split held at 0: every run of a benchmark is scored on the held-out tasks its baselines were.
  const s = await search({
    env,
    out,
    budget: BUDGET,
    seed,
    splitSeed: 0,
    policy: policy as PolicyName,
    meta: 'offline',
    models: OFFLINE,
    workers: 0,
  });
  const seedTests = Object.fromEntries(s.seeds.map((x) => [x.id, x.test ?? Number.NaN]));
  const design = s.screen?.find((x) => x.node === s.winner.id)?.design;
  return {
    bench: b.name,
    policy,
    seed,
    summary: s,
    pickTest: s.winner.test ?? Number.NaN,
    pickTasks: testRewards(out, s.winner.id),
    pickName: design ? `${s.winner.id} (${design})` : `${s.winner.id} (child)`,
    seedTests,
    children: s.validGenerations + s.failedGenerations + s.noOps,
    noOps: s.noOps,
    reEvaluations: s.reEvaluations,
    repeatedSamples: repeatedSamples(out),
    seconds: (Date.now() - t0) / 1000,
  };
}

const runs: Run[] = [];
const baselines = new Map<string, Record<string, number>>();
const baselineTasks = new Map<string, Map<string, Map<string, number>>>();
const started = Date.now();
for (const b of CHOSEN) {
  const work = mkdtempSync(join(tmpdir(), `bench-search-${b.name}-`));
  try {
    const env = b.prepare(work);
    const { scores: base, tasks } = await baselineTests(env, work);
    baselines.set(b.name, base);
    baselineTasks.set(b.name, tasks);
    process.stderr.write(
      `${b.name}: baselines on test ${Object.entries(base)
        .map(([k, v]) => `${k} ${fmt(v, 3)}`)
        .join(', ')}\n`,
    );
    for (const policy of POLICIES) {
      for (let seed = 1; seed <= SEEDS; seed++) {
        const run = await searchOnce(b, env, policy, seed, work);
        runs.push(run);
        const s = run.summary;
        process.stderr.write(
          `${b.name} ${policy} seed ${seed}: pick ${s.winner.id} test ${fmt(run.pickTest, 3)} (validation ${fmt(s.winner.validation, 3)})${s.tie ? `, tied with ${s.tie.nodes.map((n) => n.id).join(', ')}` : ''}; ` +
            `seeds ${Object.entries(run.seedTests)
              .map(([k, v]) => `${k} ${fmt(v, 3)}`)
              .join(', ')}; ${s.generations} generate / ${s.reEvaluations} re-evaluate steps, ` +
            `${s.validGenerations} children evaluated, ${s.noOps} no-op, ${s.failedGenerations} failed; ${run.seconds.toFixed(0)} s\n`,
        );
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

process.stdout.write(
  `bench:search — offline, ${BUDGET} steps, ${SEEDS} seed(s), policies ${POLICIES.join(', ')}, ${values.dev ? 'development' : 'bench'} benchmarks, ${((Date.now() - started) / 60000).toFixed(1)} min\n\n`,
);
const rows: (string | number)[][] = [
  [
    'benchmark',
    'shape',
    'policy',
    'best baseline (test)',
    'best seed (test)',
    'pick (test)',
    'pick − best seed',
    'steps',
    'no-op share',
    're-evaluations',
    'samples scored twice',
    'validation',
    'resolvable ±',
  ],
];
const verdicts: { bench: string; withinBaselines: boolean; beatsSeed: boolean }[] = [];
for (const b of CHOSEN) {
  const base = baselines.get(b.name) ?? {};
  const bestBaseline = Object.entries(base).sort((x, y) => y[1] - x[1])[0] ?? ['—', Number.NaN];
  for (const policy of POLICIES) {
    const rs = runs.filter((r) => r.bench === b.name && r.policy === policy);
    if (!rs.length) continue;
    const bestSeed = mean(rs.map((r) => Math.max(...Object.values(r.seedTests))));
    const pick = mean(rs.map((r) => r.pickTest));
    const noOps = rs.reduce((n, r) => n + r.noOps, 0);
    const children = rs.reduce((n, r) => n + r.children, 0);
    const v = rs[0]?.summary.validation;
    rows.push([
      b.name,
      b.shape,
      policy,
      `${fmt(bestBaseline[1], 3)} (${bestBaseline[0]})`,
      fmt(bestSeed, 3),
      fmt(pick, 3),
      `${pick - bestSeed >= 0 ? '+' : ''}${fmt(pick - bestSeed, 3)}`,
      rs.reduce((n, r) => n + r.summary.steps, 0) / rs.length,
      `${noOps} of ${children} (${children ? ((100 * noOps) / children).toFixed(0) : 0}%)`,
      rs.reduce((n, r) => n + r.reEvaluations, 0),
      rs.reduce((n, r) => n + r.repeatedSamples, 0),
      v ? `${v.tasks} (${v.perEvaluation}/evaluation, ${v.samples} samples)` : '—',
      v ? fmt(v.resolvable, 3) : '—',
    ]);
    if (policy === 'ucb')
      verdicts.push({
        bench: b.name,
        withinBaselines: pick >= Math.max(bestBaseline[1], bestSeed) - 0.01,
        beatsSeed: pick - bestSeed >= 0.02,
      });
  }
}
process.stdout.write(`${table(rows)}\n\n`);

// Issue 39: the pick against the best standard design on test, task by task (paired), per run.
const signed = (x: number) => `${x >= 0 ? '+' : ''}${fmt(x, 3)}`;
const against: { bench: string; best: string; bestTest: number; run: Run; d: PairedDifference }[] = [];
for (const b of CHOSEN) {
  const base = baselines.get(b.name) ?? {};
  const best = STANDARD_DESIGNS.map((d) => [d, base[d] ?? Number.NaN] as const).sort((x, y) => y[1] - x[1])[0];
  const bestTasks = best ? baselineTasks.get(b.name)?.get(best[0]) : undefined;
  if (!best || !bestTasks) continue;
  for (const run of runs.filter((r) => r.bench === b.name && r.policy === 'ucb'))
    against.push({
      bench: b.name,
      best: best[0],
      bestTest: best[1],
      run,
      d: pairedDifference(run.pickTasks, bestTasks),
    });
}
if (against.length) {
  const pairedRows: (string | number)[][] = [
    [
      'benchmark',
      'seed',
      'best standard design (test)',
      'pick',
      'pick (test)',
      'pick − best, paired (test)',
      '95% interval',
      'tasks',
      'differing',
    ],
  ];
  for (const a of against) {
    pairedRows.push([
      a.bench,
      a.run.seed,
      `${fmt(a.bestTest, 3)} (${a.best})`,
      a.run.pickName,
      fmt(a.run.pickTest, 3),
      signed(a.d.mean),
      `[${signed(a.d.mean - a.d.halfWidth)}, ${signed(a.d.mean + a.d.halfWidth)}]`,
      a.d.tasks,
      a.d.differing,
    ]);
  }
  process.stdout.write(`${table(pairedRows)}\n\n`);
  const benches = [...new Set(against.map((a) => a.bench))];
  const meanOf = (bench: string) => mean(against.filter((a) => a.bench === bench).map((a) => a.d.mean));
  const below = benches.filter((bench) => meanOf(bench) < -0.01);
  const above = benches.filter((bench) => meanOf(bench) >= 0.02);
  process.stdout.write(
    `issue 39 (ucb, ${BUDGET} steps): pick ≥ best standard design − 0.01 on test on every benchmark: ${below.length ? `no (${below.map((x) => `${x} ${signed(meanOf(x))}`).join(', ')})` : 'yes'}; ` +
      `pick ≥ best + 0.02 on ${above.length} of ${benches.length} (${above.join(', ') || 'none'}): ${above.length * 2 >= benches.length ? 'at least half' : 'fewer than half'}\n\n`,
  );
}
if (verdicts.length) {
  const beats = verdicts.filter((v) => v.beatsSeed).length;
  process.stdout.write(
    `pick ≥ best of baselines and seeds − 0.01 on every benchmark: ${
      verdicts.every((v) => v.withinBaselines)
        ? 'yes'
        : `no (${verdicts
            .filter((v) => !v.withinBaselines)
            .map((v) => v.bench)
            .join(', ')})`
    }\n` +
      `pick beats the best seed by ≥ 0.02 on ${beats} of ${verdicts.length} benchmarks (${
        verdicts
          .filter((v) => v.beatsSeed)
          .map((v) => v.bench)
          .join(', ') || 'none'
      }): ${beats * 2 >= verdicts.length ? 'at least half' : 'fewer than half'}\n`,
  );
  const noOps = runs.reduce((n, r) => n + r.noOps, 0);
  const children = runs.reduce((n, r) => n + r.children, 0);
  process.stdout.write(
    `no-op children: ${noOps} of ${children} (${children ? ((100 * noOps) / children).toFixed(0) : 0}%); samples a program was scored on twice: ${runs.reduce((n, r) => n + r.repeatedSamples, 0)}\n`,
  );
}

if (!values['no-parallel']) {
  const latency = 3000;
  printParallelRows(await parallelRows(latency, 8), latency);
  printRecordedRows(await recordedRows());
  printSession3(await session3Rows());
}
await closeHostServices();
