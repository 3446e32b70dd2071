// npm run bench:visual — the visual environment's three figures with the offline reference agent, on the
// held-out test split, per family and overall:
//   no-memory             the no-memory program (empty payload)
//   trajectory-retrieval  the trajectory-retrieval program, updated on the training episodes
//   oracle                a payload holding the correct tool sequence of a training sibling
// Targets (issue 5): no-memory between 20% and 50%; trajectory-retrieval at least 20 points above it; oracle at
// least 85%. Every row says whether it holds.
// Usage: npm run bench:visual [-- --families microtext,charts --instances 10 --seed 0]
import { parseArgs } from 'node:util';
import { evaluateProgram, type EvaluationResult } from '../engine/evaluate/evaluate.ts';
import { resolveModels } from '../foundation/llm/models.ts';
import { taskEnvironment } from '../engine/environment/task-environment.ts';
import { siblingOraclePayload } from '../envs/oracle.ts';
import { visualSpec } from '../envs/visual/environment.ts';
import { resolveProgram } from '../memo-programs/registry.ts';
import { compileProgram } from '../sandbox/compile.ts';
import { closeHostServices, createHostServices } from '../sandbox/primitives/index.ts';
import { noteToStderr } from '../cli/style.ts';
import { table } from './stats.ts';

const { values } = parseArgs({
  options: { families: { type: 'string' }, instances: { type: 'string' }, seed: { type: 'string' } },
});
const models = resolveModels({}, {});
const services = createHostServices(models);
const started = Date.now();
const spec = visualSpec({
  models,
  images: services.images,
  ...(values.families ? { families: values.families.split(',') } : {}),
  ...(values.instances ? { instances: Number(values.instances) } : {}),
  ...(values.seed ? { seed: Number(values.seed) } : {}),
});
const env = taskEnvironment('visual', spec, {
  seed: values.seed ? Number(values.seed) : 0,
  images: services.images,
  onNote: noteToStderr,
});
const info = env.info();
process.stdout.write(
  `visual environment, mode ${info.mode} (${info.agentId}), seed ${JSON.stringify((info.data as { seed: number }).seed)}, split ${JSON.stringify((info.data as { split: unknown }).split)}\n`,
);
await env.worlds('train');
process.stdout.write(`training episodes ready after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

const family = (scenario: string) => scenario.split('/')[0] as string;
type Rewards = Map<string, number[]>;
const add = (m: Rewards, key: string, r: number) => m.set(key, [...(m.get(key) ?? []), r]);

async function program(name: string): Promise<{ byFamily: Rewards; result: EvaluationResult; seconds: number }> {
  const t = Date.now();
  const c = await compileProgram({ entryPath: resolveProgram(name).path });
  if (!c.ok) throw new Error(`${name} does not compile`);
  const result = await evaluateProgram(c.program, { env, split: 'test', services });
  const byFamily: Rewards = new Map();
  for (const task of result.tasks) if (task.reward !== null) add(byFamily, family(task.scenario), task.reward);
  return { byFamily, result, seconds: (Date.now() - t) / 1000 };
}

const none = await program('no-memory');
const traj = await program('trajectory-retrieval');
const oracle: Rewards = new Map();
const t0 = Date.now();
const [world] = await env.worlds('test');
for (const task of world?.tasks ?? []) {
  const out = await env.run(task, siblingOraclePayload(spec.tasks, task.taskId));
  add(oracle, family(env.scenario(task.taskId)), out.reward);
}
const oracleSeconds = (Date.now() - t0) / 1000;

const mean = (xs: number[] | undefined) => (xs?.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const rows: string[][] = [];
const families = [...new Set([...none.byFamily.keys()])];
let allHold = true;
for (const f of [...families, 'overall']) {
  const pick = (m: Rewards) => (f === 'overall' ? [...m.values()].flat() : m.get(f));
  const n = mean(pick(none.byFamily));
  const t = mean(pick(traj.byFamily));
  const o = mean(pick(oracle));
  const holds = n >= 0.2 && n <= 0.5 && t - n >= 0.2 && o >= 0.85;
  allHold &&= holds;
  rows.push([
    f,
    String(pick(none.byFamily)?.length ?? 0),
    pct(n),
    pct(t),
    `${((t - n) * 100).toFixed(1)}`,
    pct(o),
    holds ? 'yes' : 'NO',
  ]);
}
process.stdout.write(
  `\n${table([['family', 'tasks', 'no-memory', 'trajectory-retrieval', 'gain (points)', 'oracle', 'targets hold'], ...rows])}\n`,
);
process.stdout.write(
  `\ntargets: no-memory 20–50%, trajectory-retrieval ≥ no-memory + 20 points, oracle ≥ 85%  →  ${allHold ? 'all hold' : 'NOT all hold'}\n` +
    `time: no-memory ${none.seconds.toFixed(1)} s, trajectory-retrieval ${traj.seconds.toFixed(1)} s, oracle ${oracleSeconds.toFixed(1)} s, total ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
);
await env.close?.();
await closeHostServices();
process.exitCode = allHold ? 0 : 1;
