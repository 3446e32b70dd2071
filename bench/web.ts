// npm run bench:web — the web environment's figures with the offline reference agent, on the held-out test split,
// per template, per site and overall:
//   no-memory             the no-memory program (empty payload)
//   trajectory-retrieval  the trajectory-retrieval program, updated on the training episodes
//   oracle                a payload holding the scripted procedure of a training sibling
// and the throughput: episodes per second with 1 and with 4 concurrent browser contexts, in the same run.
// Targets (issue 6): per site and overall, no-memory between 20% and 50%, trajectory-retrieval at least 20 points
// above it, oracle at least 90%; at least 2 episodes/s with 4 contexts.
// Usage: npm run bench:web [-- --sites shop,travel --instances 15 --seed 0 --throughput 40]
import { parseArgs } from 'node:util';
import { evaluateProgram } from '../engine/evaluate/evaluate.ts';
import { mapLimit } from '../engine/evaluate/limit.ts';
import { resolveModels } from '../foundation/llm/models.ts';
import { noteToStderr } from '../cli/style.ts';
import { CHROMIUM_PATH } from '../envs/web/browser/browser.ts';
import { taskEnvironment } from '../engine/environment/task-environment.ts';
import type { EnvTask } from '../engine/environment/task-spec.ts';
import { siblingOraclePayload } from '../envs/oracle.ts';
import { webSpec } from '../envs/web/environment.ts';
import { resolveProgram } from '../memo-programs/registry.ts';
import { compileProgram } from '../sandbox/compile.ts';
import { closeHostServices, createHostServices } from '../sandbox/primitives/index.ts';
import { table } from './stats.ts';

const { values } = parseArgs({
  options: {
    sites: { type: 'string' },
    instances: { type: 'string' },
    seed: { type: 'string' },
    throughput: { type: 'string' },
  },
});
const models = resolveModels({}, {});
const services = createHostServices(models);
const started = Date.now();
const spec = webSpec({
  models,
  ...(values.sites ? { sites: values.sites.split(',') } : {}),
  ...(values.instances ? { instances: Number(values.instances) } : {}),
  ...(values.seed ? { seed: Number(values.seed) } : {}),
});
const env = taskEnvironment('web', spec, {
  seed: values.seed ? Number(values.seed) : 0,
  images: services.images,
  onNote: noteToStderr,
});
/** What a program would see of a task; running it needs only the id. */
const partial = (t: EnvTask<unknown>) => ({
  taskId: t.id,
  env: 'web',
  instruction: t.instruction,
  initial: {},
  meta: {},
});
const info = env.info();
const data = info.data as { seed: number; split: unknown; screenshots: string };
process.stdout.write(
  `web environment, mode ${info.mode} (${info.agentId}), seed ${data.seed}, split ${JSON.stringify(data.split)}, screenshots ${data.screenshots}, browser ${CHROMIUM_PATH}\n`,
);
await env.worlds('train');
process.stdout.write(`training episodes ready after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

type Rewards = Map<string, number[]>;
const add = (m: Rewards, key: string, r: number) => m.set(key, [...(m.get(key) ?? []), r]);

async function program(name: string): Promise<{ byTemplate: Rewards; seconds: number }> {
  const t = Date.now();
  const c = await compileProgram({ entryPath: resolveProgram(name).path });
  if (!c.ok) throw new Error(`${name} does not compile`);
  const result = await evaluateProgram(c.program, { env, split: 'test', services, taskConcurrency: 4 });
  const byTemplate: Rewards = new Map();
  for (const task of result.tasks) if (task.reward !== null) add(byTemplate, task.scenario, task.reward);
  const infra = result.tasks.filter((x) => x.reward === null).length;
  if (infra) process.stderr.write(`${name}: ${infra} task(s) had infrastructure failures and are not scored\n`);
  const seconds = (Date.now() - t) / 1000;
  const all = [...byTemplate.values()].flat();
  process.stderr.write(
    `${name}: ${all.length} test tasks in ${seconds.toFixed(1)} s, mean ${((100 * all.reduce((a, b) => a + b, 0)) / Math.max(1, all.length)).toFixed(1)}%\n`,
  );
  return { byTemplate, seconds };
}

const none = await program('no-memory');
const traj = await program('trajectory-retrieval');
const oracle: Rewards = new Map();
const t0 = Date.now();
const tests = spec.tasks.filter((t) => t.role === 'test');
await mapLimit(tests, 4, async (t) => {
  const r = await env.run(partial(t), siblingOraclePayload(spec.tasks, t.id));
  add(oracle, t.scenario, r.success ? 1 : 0);
});
const oracleSeconds = (Date.now() - t0) / 1000;

// Throughput: the same no-memory episodes, first one at a time, then with 4 contexts (a ratio in one run).
// Spread over the whole test list, so every site is in the sample (the list is ordered by site).
const wanted = Math.min(tests.length, Number(values.throughput ?? 40));
const sample = Array.from(
  { length: wanted },
  (_, i) => tests[Math.floor((i * tests.length) / wanted)] as (typeof tests)[number],
);
const rate: Record<number, number> = {};
for (const contexts of sample.length ? [1, 4] : []) {
  const t = Date.now();
  await mapLimit(sample, contexts, async (task) => {
    await env.run(partial(task), { text: '', images: [] });
  });
  rate[contexts] = sample.length / ((Date.now() - t) / 1000);
}

const mean = (xs: number[] | undefined) => (xs?.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const templates = [...none.byTemplate.keys()];
const row = (label: string, pick: (m: Rewards) => number[] | undefined, judge: boolean) => {
  const n = mean(pick(none.byTemplate));
  const t = mean(pick(traj.byTemplate));
  const o = mean(pick(oracle));
  const holds = n >= 0.2 && n <= 0.5 && t - n >= 0.2 && o >= 0.9;
  return {
    holds,
    cells: [
      label,
      String(pick(none.byTemplate)?.length ?? 0),
      pct(n),
      pct(t),
      `${((t - n) * 100).toFixed(1)}`,
      pct(o),
      judge ? (holds ? 'yes' : 'NO') : '',
    ],
  };
};
const header = ['', 'tasks', 'no-memory', 'trajectory-retrieval', 'gain (points)', 'oracle', 'targets hold'];
process.stdout.write(
  `\nper template\n${table([header, ...templates.map((k) => row(k, (m) => m.get(k), false).cells)])}\n`,
);
const sites = [...new Set(templates.map((k) => k.split('/')[0] as string))];
const siteRows = [
  ...sites.map((s) => row(s, (m) => [...m].filter(([k]) => k.startsWith(`${s}/`)).flatMap(([, v]) => v), true)),
  row('overall', (m) => [...m.values()].flat(), true),
];
const allHold = siteRows.every((r) => r.holds) && (rate[4] as number) >= 2;
process.stdout.write(`\nper site\n${table([header, ...siteRows.map((r) => r.cells)])}\n`);
process.stdout.write(
  `\nthroughput (no-memory episodes, ${sample.length} each): 1 context ${rate[1]?.toFixed(2)} episodes/s, 4 contexts ${rate[4]?.toFixed(2)} episodes/s (${((rate[4] as number) / (rate[1] as number)).toFixed(2)}×)\n` +
    `targets: no-memory 20–50%, trajectory-retrieval ≥ no-memory + 20 points, oracle ≥ 90% (per site and overall); ≥ 2 episodes/s with 4 contexts  →  ${allHold ? 'all hold' : 'NOT all hold'}\n` +
    `time: no-memory ${none.seconds.toFixed(1)} s, trajectory-retrieval ${traj.seconds.toFixed(1)} s, oracle ${oracleSeconds.toFixed(1)} s, total ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
);
await env.close?.();
await closeHostServices();
process.exitCode = allHold ? 0 : 1;
