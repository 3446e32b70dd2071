// npm run bench:study — the study of issue 40 on this machine: LoCoMo, a data benchmark (team-logs, answer
// containment) and a module benchmark (workshops, 8 worlds), 3 searches each (run seeds 0–2), budget 12, the offline
// meta agent, the floor, the transfer matrix; prints its wall time, each piece's share of it, and the study's table.
// Usage: npm run bench:study [-- --repeat 3 --budget 12 --envs locomo,team-logs,workshops --workers N --out DIR --joint]
// An entry, as index.js and cli/main.ts are: the API it runs is the automemo an environment module's `import 'automemo'` gets.
import '../api/running.ts';
import { mkdtempSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveModels, study, type StudyPhase } from '../api/index.ts';
import { defaultWorkers } from '../api/worker-count.ts';
import { BENCHMARKS } from './benchmarks/index.ts';

const { values } = parseArgs({
  options: {
    repeat: { type: 'string' },
    budget: { type: 'string' },
    envs: { type: 'string' },
    workers: { type: 'string' },
    out: { type: 'string' },
    joint: { type: 'boolean' },
  },
});
const names = (values.envs ?? 'locomo,team-logs,workshops').split(',');
const work = mkdtempSync(join(tmpdir(), 'bench-study-'));
const envs = names.map((n) => {
  const b = BENCHMARKS.find((x) => x.name === n);
  if (!b) throw new Error(`no bench benchmark ${n}; known: ${BENCHMARKS.map((x) => x.name).join(', ')}`);
  return b.prepare(work);
});
const out = values.out ?? join(work, 'study');
const workers = values.workers !== undefined ? Number(values.workers) : defaultWorkers();
const spent = new Map<string, number>();
let current: { kind: string; since: number } | undefined;
const close = () => {
  if (current) spent.set(current.kind, (spent.get(current.kind) ?? 0) + (Date.now() - current.since));
};
const loads: number[] = [];
const sampler = setInterval(() => loads.push(loadavg()[0] as number), 30_000);
sampler.unref();
const started = Date.now();
console.log(
  `bench:study — ${names.join(', ')}; repeat ${values.repeat ?? 3}, budget ${values.budget ?? 12}, offline, ${workers} worker process(es), ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}; study folder ${out}`,
);
const r = await study({
  env: envs,
  out,
  repeat: Number(values.repeat ?? 3),
  budget: Number(values.budget ?? 12),
  meta: 'offline',
  models: resolveModels({}, {}),
  workers,
  ...(values.joint ? { joint: true } : {}),
  onPhase: (p: StudyPhase) => {
    close();
    current = { kind: p.kind, since: Date.now() };
    const what =
      p.kind === 'search'
        ? `search ${names[p.env] ?? 'joint'} seed ${p.seed}`
        : p.kind === 'floor'
          ? `floor ${names[p.env] ?? 'joint'} ${p.split}`
          : p.kind === 'transfer'
            ? `transfer ${names[p.env]} seed ${p.seed} → ${names[p.target]}`
            : p.kind;
    console.log(`  ${((Date.now() - started) / 1000).toFixed(0).padStart(6)} s  ${what}`);
  },
});
close();
const wall = (Date.now() - started) / 1000;
console.log(readFileSync(join(r.folder, 'study.md'), 'utf8'));
console.log(`time by piece: ${[...spent].map(([k, ms]) => `${k} ${(ms / 1000).toFixed(0)} s`).join(', ')}`);
console.log(
  `load average while it ran: mean ${(loads.reduce((a, b) => a + b, 0) / Math.max(1, loads.length)).toFixed(1)} (${loads.length} samples)`,
);
console.log(`bench:study wall time: ${wall.toFixed(0)} s (${(wall / 60).toFixed(1)} min), status ${r.study.status}`);
