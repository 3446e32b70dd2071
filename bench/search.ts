// npm run bench:search — on LoCoMo offline, the UCB tree search against greedy (always expand the best mean),
// uniform-random parent and ALMA-style softmax with a visit penalty: same step budget, 5 seeds each. For each run:
// the best LCB at the end, the held-out test score of the program it selects (by LCB), and the full evaluations
// used. Then, over all runs, LCB selection against max-mean selection: the test score of each one's pick.
// Usage: npm run bench:search [-- --budget 20 --seeds 5]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { evaluateProgram } from '../engine/evaluate/evaluate.ts';
import { CostLedger } from '../engine/llm/ledger.ts';
import { resolveModels } from '../engine/llm/models.ts';
import { OfflineMetaAgent } from '../engine/meta/offline/agent.ts';
import { runSearch } from '../engine/search/search.ts';
import { selectFinal } from '../engine/search/selection.ts';
import { DEFAULT_UCB, lcb } from '../engine/search/ucb.ts';
import { LocomoEnvironment } from '../envs/locomo/environment.ts';
import { resolveProgram } from '../memo-programs/registry.ts';
import { compileProgram } from '../sandbox/compile.ts';
import { closeHostServices, createHostServices } from '../sandbox/primitives/index.ts';
import { readJournal } from '../search-trees/journal.ts';
import { replay } from '../search-trees/replay.ts';
import { RUN_FORMAT, RunFolder, type RunOptions } from '../search-trees/run-folder.ts';
import { fmt, table } from './stats.ts';

const { values } = parseArgs({ options: { budget: { type: 'string' }, seeds: { type: 'string' } } });
const BUDGET = Number(values.budget ?? 20);
const SEEDS = Number(values.seeds ?? 5);
const POLICIES = ['ucb', 'greedy', 'random', 'alma-softmax'];

const models = resolveModels({}, {});
const env = LocomoEnvironment.load({ models });
const services = createHostServices(models);
const testScores = new Map<string, number>();

/** Held-out test score of a program, by bundle hash (the same program is tested once). */
async function testScore(dir: string, hash: string): Promise<number> {
  const known = testScores.get(hash);
  if (known !== undefined) return known;
  const c = await compileProgram({ entryPath: join(dir, 'index.ts') });
  if (!c.ok) throw new Error(`${dir} does not compile`);
  const r = await evaluateProgram(c.program, { env, split: 'test', services });
  testScores.set(hash, r.score ?? 0);
  return r.score ?? 0;
}

interface Run {
  policy: string;
  seed: number;
  bestLcb: number;
  lcbTest: number;
  meanTest: number;
  evaluations: number;
  seconds: number;
}

const runs: Run[] = [];
const started = Date.now();
for (const policy of POLICIES) {
  for (let seed = 1; seed <= SEEDS; seed++) {
    const dir = mkdtempSync(join(tmpdir(), `bench-search-${policy}-`));
    const folder = new RunFolder(dir);
    const options: RunOptions = {
      env: 'locomo',
      budget: BUDGET,
      seeds: ['omni-simplemem'],
      meta: 'offline',
      seed,
      policy,
      selection: 'lcb',
      evalFraction: 0.5,
      ucb: DEFAULT_UCB,
      repairAttempts: 3,
      quickExamTasks: 5,
      testWinner: false,
    };
    folder.create({ format: RUN_FORMAT, createdAt: new Date().toISOString(), options, env: {}, models: {}, versions: {} });
    const t0 = Date.now();
    await runSearch({ env, services, meta: new OfflineMetaAgent(), folder, options, models, ledger: new CostLedger() });
    const tree = replay(readJournal(folder.journalPath).events).tree;
    const N = tree.totalEvaluations();
    const byLcb = selectFinal(tree, DEFAULT_UCB, 'lcb');
    const byMean = selectFinal(tree, DEFAULT_UCB, 'max-mean');
    const run: Run = {
      policy,
      seed,
      bestLcb: lcb(tree.q(byLcb), byLcb.scores.length, N, DEFAULT_UCB),
      lcbTest: await testScore(join(dir, byLcb.dir), byLcb.hash),
      meanTest: await testScore(join(dir, byMean.dir), byMean.hash),
      evaluations: N,
      seconds: (Date.now() - t0) / 1000,
    };
    runs.push(run);
    process.stderr.write(`${policy} seed ${seed}: best LCB ${fmt(run.bestLcb, 3)}, test of LCB pick ${fmt(run.lcbTest, 3)}, of max-mean pick ${fmt(run.meanTest, 3)}, ${N} evaluations, ${run.seconds.toFixed(0)} s\n`);
    rmSync(dir, { recursive: true, force: true });
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
const seedScore = await (async () => {
  const c = await compileProgram({ entryPath: resolveProgram('omni-simplemem').path });
  if (!c.ok) return NaN;
  return (await evaluateProgram(c.program, { env, split: 'test', services })).score ?? 0;
})();
await closeHostServices();

process.stdout.write(`bench:search — LoCoMo offline, ${BUDGET} steps, ${SEEDS} seeds per policy, offline meta agent, ${((Date.now() - started) / 60000).toFixed(1)} min\n\n`);
process.stdout.write(
  `${table([
    ['policy', 'mean best LCB', 'mean test (LCB pick)', 'sd', 'mean full evaluations', 'mean s/run'],
    ...POLICIES.map((p) => {
      const rs = runs.filter((r) => r.policy === p);
      return [p, fmt(mean(rs.map((r) => r.bestLcb)), 3), fmt(mean(rs.map((r) => r.lcbTest)), 3), fmt(sd(rs.map((r) => r.lcbTest)), 3), fmt(mean(rs.map((r) => r.evaluations)), 1), fmt(mean(rs.map((r) => r.seconds)), 0)];
    }),
  ])}\n\n`,
);
process.stdout.write(
  `${table([
    ['selection (all runs)', 'mean test of pick', 'runs where it is better', 'ties'],
    ['lcb', fmt(mean(runs.map((r) => r.lcbTest)), 3), String(runs.filter((r) => r.lcbTest > r.meanTest + 1e-9).length), String(runs.filter((r) => Math.abs(r.lcbTest - r.meanTest) <= 1e-9).length)],
    ['max-mean', fmt(mean(runs.map((r) => r.meanTest)), 3), String(runs.filter((r) => r.meanTest > r.lcbTest + 1e-9).length), ''],
  ])}\n\nOmni-SimpleMem seed on the test split: ${fmt(seedScore, 3)}\n`,
);
