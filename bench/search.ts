// npm run bench:search — the tree search offline, per environment: UCB against greedy (always expand the best mean),
// uniform-random parent and ALMA-style softmax with a visit penalty, same step budget, several seeds. Per
// environment and policy: the action mix (how many steps wrote a child and how many re-evaluated one), the best LCB
// at the end, and the held-out test score of what LCB selection and max-mean selection pick (and how often they
// pick differently). Then the model rows: 8 model steps with --parallel 1 and 4 against a slow local model (calls and
// tokens per valid child), and a real model's recorded session replayed (bench/search-recorded.ts).
// Usage: npm run bench:search [-- --envs 'locomo;visual:charts,scenes' --policies ucb,greedy --budget 20 --seeds 5
//        --programs omni-simplemem,pipeline --no-parallel]   (--programs: the seed programs, default the search's own;
//        the first is compared with)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SEEDS, evaluate, resolveModels, search } from '../api/index.ts';
import { selectFinal } from '../engine/search/selection.ts';
import { DEFAULT_UCB, lcb } from '../engine/search/ucb.ts';
import { closeHostServices } from '../sandbox/primitives/index.ts';
import { readJournal } from '../search-trees/journal.ts';
import { replay } from '../search-trees/replay.ts';
import { parallelRows, printParallelRows } from './search-parallel.ts';
import { printRecordedRows, recordedRows } from './search-recorded.ts';
import { fmt, table } from './stats.ts';

const { values } = parseArgs({
  options: { budget: { type: 'string' }, seeds: { type: 'string' }, envs: { type: 'string' }, policies: { type: 'string' }, programs: { type: 'string' }, 'no-parallel': { type: 'boolean' } },
});
const BUDGET = Number(values.budget ?? 20);
const SEEDS = Number(values.seeds ?? 5);
// Environments are separated by ";" (a name may hold commas: visual:charts,scenes).
const ENVS = (values.envs ?? 'locomo;visual:charts,scenes').split(';').filter(Boolean);
// Offline throughout, whatever the shell's AUTOMEMO_* variables say.
const OFFLINE = resolveModels({}, {});
const POLICIES = (values.policies ?? 'ucb,greedy,random,alma-softmax').split(',');
// The seed programs every search starts from (the first is the one each pick is compared with).
const PROGRAMS = values.programs ? values.programs.split(',').filter(Boolean) : DEFAULT_SEEDS;

interface Run {
  env: string;
  policy: string;
  seed: number;
  generations: number;
  reEvaluations: number;
  noOps: number;
  /** Children that passed and were evaluated, and those that never passed quick examination. */
  children: number;
  failed: number;
  /** Test score of each seed program. */
  seedTests: Record<string, number>;
  bestLcb: number;
  lcbTest: number;
  meanTest: number;
  samePick: boolean;
  seedTest: number;
  seconds: number;
}

/** Held-out test scores by environment and program hash: the same program is tested once. */
const tested = new Map<string, number>();
async function testScore(env: string, dir: string, hash: string, work: string): Promise<number> {
  const key = `${env}|${hash}`;
  const known = tested.get(key);
  if (known !== undefined) return known;
  const r = await evaluate({ env, program: dir, split: 'test', models: OFFLINE, out: join(work, `test-${hash.slice(0, 12)}`) });
  tested.set(key, r.score ?? 0);
  return r.score ?? 0;
}

const runs: Run[] = [];
const started = Date.now();
for (const env of ENVS) {
  for (const policy of POLICIES) {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const work = mkdtempSync(join(tmpdir(), `bench-search-${policy}-`));
      const t0 = Date.now();
      const out = join(work, 'run');
      const s = await search({ env, out, budget: BUDGET, seed, policy, meta: 'offline', seeds: PROGRAMS, test: false, models: OFFLINE });
      const tree = replay(readJournal(join(out, 'journal.jsonl')).events).tree;
      const N = tree.totalEvaluations();
      const byLcb = selectFinal(tree, DEFAULT_UCB, 'lcb');
      const byMean = selectFinal(tree, DEFAULT_UCB, 'max-mean');
      const seedNodes = [...tree.nodes.values()].filter((n) => n.kind === 'seed');
      const seedNode = seedNodes[0];
      const seedTests: Record<string, number> = {};
      for (const n of seedNodes) seedTests[n.id] = await testScore(env, join(out, n.dir), n.hash, work);
      const run: Run = {
        env,
        policy,
        seed,
        generations: s.generations,
        reEvaluations: s.reEvaluations,
        noOps: s.noOps,
        children: s.validGenerations,
        failed: s.failedGenerations,
        seedTests,
        bestLcb: lcb(tree.q(byLcb), byLcb.scores.length, N, DEFAULT_UCB),
        lcbTest: await testScore(env, join(out, byLcb.dir), byLcb.hash, work),
        meanTest: await testScore(env, join(out, byMean.dir), byMean.hash, work),
        samePick: byLcb.id === byMean.id,
        seedTest: seedNode ? await testScore(env, join(out, seedNode.dir), seedNode.hash, work) : Number.NaN,
        seconds: (Date.now() - t0) / 1000,
      };
      runs.push(run);
      process.stderr.write(
        `${env} ${policy} seed ${seed}: ${run.generations} generate (${run.noOps} no-op tries) / ${run.reEvaluations} re-evaluate, best LCB ${fmt(run.bestLcb, 3)}, test of LCB pick ${fmt(run.lcbTest, 3)}` +
          `${run.samePick ? ' (max-mean picks the same)' : `, of max-mean pick ${fmt(run.meanTest, 3)}`} (${byLcb.id}); seeds ${Object.entries(seedTests).map(([k, v]) => `${k} ${fmt(v, 3)}`).join(', ')}; ` +
          `${run.children} children evaluated, ${run.noOps} no-op, ${run.failed} failed; ${run.seconds.toFixed(0)} s\n`,
      );
      rmSync(work, { recursive: true, force: true });
    }
  }
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const sd = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
const signed = (x: number) => `${x >= 0 ? '+' : ''}${fmt(x, 3)}`;
const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, a + b)).toFixed(0)}%`;

process.stdout.write(`bench:search — offline, ${BUDGET} steps, ${SEEDS} seeds per policy, offline meta agent, ${((Date.now() - started) / 60000).toFixed(1)} min\n`);
for (const env of ENVS) {
  const here = runs.filter((r) => r.env === env);
  const seedIds = [...new Set(here.flatMap((r) => Object.keys(r.seedTests)))];
  process.stdout.write(`\n${env} (seeds on test: ${seedIds.map((id) => `${id} ${fmt(mean(here.map((r) => r.seedTests[id] ?? Number.NaN)), 3)}`).join(', ')})\n`);
  process.stdout.write(
    `${table([
      ['policy', 'generate', 'no-op share of children', 're-evaluate', 're-evaluate share', 'mean best LCB', 'mean test (LCB pick)', 'sd', 'mean test (max-mean pick)', 'LCB ≠ max-mean', 'mean s/run'],
      ...POLICIES.map((p) => {
        const rs = here.filter((r) => r.policy === p);
        const g = rs.reduce((n, r) => n + r.generations, 0);
        const e = rs.reduce((n, r) => n + r.reEvaluations, 0);
        return [
          p,
          String(g),
          (() => {
            const noOps = rs.reduce((n, r) => n + r.noOps, 0);
            const children = rs.reduce((n, r) => n + r.children + r.failed, 0);
            return `${noOps} of ${noOps + children} (${pct(noOps, children)})`;
          })(),
          String(e),
          pct(e, g),
          fmt(mean(rs.map((r) => r.bestLcb)), 3),
          `${fmt(mean(rs.map((r) => r.lcbTest)), 3)} (${signed(mean(rs.map((r) => r.lcbTest - r.seedTest)))} vs first seed)`,
          fmt(sd(rs.map((r) => r.lcbTest)), 3),
          fmt(mean(rs.map((r) => r.meanTest)), 3),
          `${rs.filter((r) => !r.samePick).length} of ${rs.length}`,
          fmt(mean(rs.map((r) => r.seconds)), 0),
        ];
      }),
    ])}\n`,
  );
  const differ = here.filter((r) => !r.samePick);
  process.stdout.write(
    differ.length
      ? `where the picks differ (${differ.length} runs): LCB pick better on test in ${differ.filter((r) => r.lcbTest > r.meanTest + 1e-9).length}, max-mean pick better in ${differ.filter((r) => r.meanTest > r.lcbTest + 1e-9).length}; mean test ${fmt(mean(differ.map((r) => r.lcbTest)), 3)} (LCB) vs ${fmt(mean(differ.map((r) => r.meanTest)), 3)} (max-mean)\n`
      : 'LCB and max-mean picked the same program in every run\n',
  );
}

if (!values['no-parallel']) {
  const latency = 3000;
  printParallelRows(await parallelRows(latency, 8), latency);
  printRecordedRows(await recordedRows());
}
await closeHostServices();
