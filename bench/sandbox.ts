// npm run bench:sandbox — the sandbox's costs, measured in one run on this machine:
//   1. isolate create + program load (trajectory-retrieval), median of 20 warm starts;
//   2. retrieve() round trip in the isolate vs the same program in-process, holding 1,000 episodes,
//      interleaved query by query so machine noise hits both sides alike — with the query embeddings already
//      cached on the host (the harshest case: nearly all that is left is the boundary), and with fresh queries
//      whose embedding is computed (what a deployed memory does for a new task);
//   3. quick-examination wall time, median of 10.
// Targets (issue 2): load <= 50 ms, ratio <= 1.5, quick examination <= 2 s.
import { join } from 'node:path';
import type { EpisodeRecorder, PartialRecorder } from '../memo-programs/contract.ts';
import { resolveModels } from '../foundation/llm/models.ts';
import { compileProgram } from '../sandbox/compile.ts';
import { ProgramInstance } from '../sandbox/isolate.ts';
import { DEFAULT_BUDGET } from '../sandbox/payload.ts';
import { seedsDir } from '../foundation/paths.ts';
import { closeHostServices, createHostServices, InstancePrimitives } from '../sandbox/primitives/index.ts';
import { quickExam } from '../sandbox/quick-exam.ts';
import { inProcessContext, loadInProcess } from './in-process.ts';
import { fmt, median, quantile, table } from './stats.ts';

const SITES = ['shop', 'travel', 'recipes', 'code', 'forum', 'helpdesk', 'charts', 'maze'];
const VERBS = ['find', 'book', 'compare', 'count', 'report', 'open', 'create', 'filter'];
const THINGS = [
  'the cheapest laptop',
  'a hotel with free cancellation',
  'recipes under 30 minutes',
  'open issues labelled bug',
  'the top post this week',
  'a ticket for the printer',
  'the tallest bar',
  'the shortest path',
];

function episode(i: number): EpisodeRecorder {
  const site = SITES[i % SITES.length] as string;
  return {
    taskId: `ep-${i}`,
    env: 'bench',
    domain: site,
    instruction: `${VERBS[i % 8]} ${THINGS[(i * 3) % 8]} on ${site} (variant ${i})`,
    initial: { text: `${site} home page` },
    steps: Array.from({ length: 6 }, (_, s) => ({
      index: s,
      action: `Click [${s + 3}] (${site} control ${s})`,
      result: `page ${s} of ${site}`,
    })),
    answer: `answer ${i}`,
    outcome: { reward: i % 3 === 0 ? 0 : 1, success: i % 3 !== 0 },
    meta: { site },
  };
}

const task = (i: number): PartialRecorder => ({
  taskId: `q-${i}`,
  env: 'bench',
  instruction: `${VERBS[(i + 1) % 8]} ${THINGS[(i * 5) % 8]} on ${SITES[(i + 2) % 8]} (query ${i})`,
  initial: {},
  meta: {},
});

async function main() {
  const services = createHostServices(resolveModels());
  const compiled = await compileProgram({ entryPath: join(seedsDir, 'trajectory-retrieval.ts') });
  if (!compiled.ok) throw new Error('trajectory-retrieval did not compile');
  const program = compiled.program;
  const episodes = Array.from({ length: 1000 }, (_, i) => episode(i));
  const tasks = Array.from({ length: 200 }, (_, i) => task(i));
  // Embeddings are cached on the host for both sides, so the comparison is about the sandbox, not the model.
  await services.embedder.embed([...episodes.map((e) => e.instruction), ...tasks.map((t) => t.instruction)]);

  // 1. load
  const loads: number[] = [];
  let cold = 0;
  for (let i = 0; i < 21; i++) {
    const prims = new InstancePrimitives(services);
    const t0 = performance.now();
    const r = await ProgramInstance.start(program, prims);
    const ms = performance.now() - t0;
    if (!r.ok) throw new Error(r.error.message);
    if (i === 0) cold = ms;
    else loads.push(ms);
    r.instance.dispose();
    prims.dispose();
  }

  // 2. retrieve round trip, interleaved
  const isoPrims = new InstancePrimitives(services);
  const started = await ProgramInstance.start(program, isoPrims);
  if (!started.ok) throw new Error(started.error.message);
  const iso = started.instance;
  const localPrims = new InstancePrimitives(services);
  const local = loadInProcess(program);
  const ctx = inProcessContext(localPrims, DEFAULT_BUDGET);
  const u0 = performance.now();
  for (const ep of episodes) {
    const r = await iso.update(ep);
    if (!r.ok) throw new Error(r.error.message);
  }
  const isoUpdateMs = performance.now() - u0;
  const u1 = performance.now();
  for (const ep of episodes) await local.update(ep, ctx);
  const localUpdateMs = performance.now() - u1;
  // Alternating blocks of 20 retrieves (as the harness calls them: many tasks in a row); per-retrieve time is the
  // block's mean. The first round warms both sides and is not counted.
  const isoTimes: number[] = [];
  const localTimes: number[] = [];
  const isoSingle: number[] = [];
  const localSingle: number[] = [];
  let sameText = 0;
  const BLOCK = 20;
  for (let round = 0; round < 16; round++) {
    for (let b = 0; b < tasks.length; b += BLOCK) {
      const block = tasks.slice(b, b + BLOCK);
      const a0 = performance.now();
      const isoPayloads: Awaited<ReturnType<typeof iso.retrieve>>[] = [];
      for (const t of block) isoPayloads.push(await iso.retrieve(t));
      const a = (performance.now() - a0) / block.length;
      const b0 = performance.now();
      const localPayloads: { text: string }[] = [];
      for (const t of block) localPayloads.push(await local.retrieve(t, ctx));
      const bb = (performance.now() - b0) / block.length;
      if (round > 0) {
        isoTimes.push(a);
        localTimes.push(bb);
      }
      isoPayloads.forEach((r, i) => {
        if (!r.ok) throw new Error(r.error.message);
        if (round < 3 && r.value.text === localPayloads[i]?.text) sameText++;
      });
    }
  }
  // The same, one retrieve at a time alternating sides (each side runs with the other's code in the CPU caches).
  for (const t of tasks) {
    const a0 = performance.now();
    await iso.retrieve(t);
    isoSingle.push(performance.now() - a0);
    const b0 = performance.now();
    await local.retrieve(t, ctx);
    localSingle.push(performance.now() - b0);
  }
  // Fresh queries: each side gets its own new texts (never seen before, by any run), so both pay for one embedding.
  const runNonce = `${process.pid}-${Date.now()}`;
  const freshIso: number[] = [];
  const freshLocal: number[] = [];
  for (let i = 0; i < 40; i++) {
    const a = { ...task(i), instruction: `${task(i).instruction} — fresh isolate query ${i} ${runNonce}` };
    const b = { ...task(i), instruction: `${task(i).instruction} — fresh local query ${i} ${runNonce}` };
    const a0 = performance.now();
    const r = await iso.retrieve(a);
    freshIso.push(performance.now() - a0);
    const b0 = performance.now();
    await local.retrieve(b, ctx);
    freshLocal.push(performance.now() - b0);
    if (!r.ok) throw new Error(r.error.message);
  }
  iso.dispose();
  isoPrims.dispose();
  localPrims.dispose();

  // 3. quick examination
  const exams: number[] = [];
  for (let i = 0; i < 11; i++) {
    const t0 = performance.now();
    const r = await quickExam({ entryPath: join(seedsDir, 'trajectory-retrieval.ts') }, { services });
    if (!r.passed) throw new Error('quick examination failed');
    if (i > 0) exams.push(performance.now() - t0);
  }
  await closeHostServices();

  const loadMs = median(loads);
  const ratio = median(isoTimes) / median(localTimes);
  const examMs = median(exams);
  const verdict = (okay: boolean) => (okay ? 'PASS' : 'FAIL');
  process.stdout.write(
    `bench:sandbox — trajectory-retrieval, offline embeddings (${services.modes.embed}), node ${process.version}\n\n`,
  );
  process.stdout.write(
    `${table([
      ['measure', 'value', 'target', 'verdict'],
      ['isolate create + program load, median of 20 (ms)', fmt(loadMs), '<= 50', verdict(loadMs <= 50)],
      ['  first (cold) load (ms)', fmt(cold), '', ''],
      ['  p95 load (ms)', fmt(quantile(loads, 0.95)), '', ''],
      [
        'retrieve() isolate / in-process (ms), 1,000 episodes, cached embeddings',
        `${fmt(median(isoTimes), 3)} / ${fmt(median(localTimes), 3)}`,
        '',
        '',
      ],
      ['retrieve() ratio isolate / in-process, cached embeddings', fmt(ratio), '<= 1.5', verdict(ratio <= 1.5)],
      ['  slowest block ratio (p95 / p95)', fmt(quantile(isoTimes, 0.95) / quantile(localTimes, 0.95)), '', ''],
      ['  one at a time, alternating sides', fmt(median(isoSingle) / median(localSingle)), '', ''],
      [
        'retrieve() median, fresh query, isolate / in-process (ms)',
        `${fmt(median(freshIso))} / ${fmt(median(freshLocal))}`,
        '',
        '',
      ],
      ['retrieve() ratio isolate / in-process, fresh queries', fmt(median(freshIso) / median(freshLocal)), '', ''],
      ['  identical payloads (of 600)', sameText, '600', verdict(sameText === 600)],
      [
        'sandbox overhead per retrieve, cached embeddings (µs)',
        fmt((median(isoTimes) - median(localTimes)) * 1000, 0),
        '',
        '',
      ],
      [
        'update() of 1,000 episodes, isolate / in-process (ms)',
        `${fmt(isoUpdateMs, 0)} / ${fmt(localUpdateMs, 0)}`,
        '',
        '',
      ],
      ['quick examination, median of 10 (ms)', fmt(examMs, 0), '<= 2000', verdict(examMs <= 2000)],
    ])}\n`,
  );
  process.exitCode = loadMs <= 50 && ratio <= 1.5 && examMs <= 2000 && sameText === 600 ? 0 : 1;
}

await main();
