// npm run bench:memory — Omni-SimpleMem inside the isolate:
//   1. ingestion of each shipped LoCoMo conversation with a cold embedding cache (the real offline model);
//   2. ingestion rate and retrieve p50/p95 at 1k, 10k and 100k MAUs of synthetic dialogue.
// At 10k/100k the embedder gives each text the real USE-lite vector of its base sentence plus seeded noise (σ
// 0.03, renormalised): the index holds that many distinct, realistically clustered vectors without the ~8 minutes
// the model would need for 100k texts. Query embeddings are warmed, so retrieve times measure the memory system;
// the model's own time for a new query is printed separately.
// Targets (issue 3): a conversation ingested in <= 15 s; retrieve p50 <= 20 ms at 10k MAUs and <= 60 ms at 100k.
import { createHash } from 'node:crypto';
import type { EpisodeRecorder, PartialRecorder } from '../memo-programs/contract.ts';
import { resolveModels } from '../foundation/llm/models.ts';
import { LocomoEnvironment, sessionEpisode } from '../envs/locomo/environment.ts';
import { resolveProgram } from '../memo-programs/registry.ts';
import { compileProgram } from '../sandbox/compile.ts';
import { ProgramInstance } from '../sandbox/isolate.ts';
import { ExtractiveChat } from '../sandbox/primitives/chat.ts';
import { CachingEmbedder, type TextEmbedder, UseLiteEmbedder } from '../sandbox/primitives/embed.ts';
import { ImageStore } from '../sandbox/primitives/images.ts';
import { closeHostServices, type HostServices, InstancePrimitives } from '../sandbox/primitives/index.ts';
import { fmt, median, quantile, table } from './stats.ts';

const LIMITS = { heapMb: 1536, callCpuMs: 120_000, callWallMs: 600_000 };
const QUOTAS = { vectorBytes: 2 * 1024 ** 3, kvBytes: 512 * 1024 ** 2 };

function services(embedder: TextEmbedder): HostServices {
  return {
    embedder,
    chat: new ExtractiveChat(),
    images: new ImageStore(),
    modes: { embed: embedder.id, memo: 'offline' },
  };
}

/** Real USE-lite vector of the base sentence (the text up to " #"), plus seeded noise unique to the text. */
class PerturbedEmbedder implements TextEmbedder {
  readonly id = 'use-lite-512+noise';
  readonly offline = true;
  constructor(private readonly base: TextEmbedder) {}
  async embed(texts: string[]): Promise<Float32Array[]> {
    const bases = texts.map((t) => t.split(' #')[0] as string);
    const vecs = await this.base.embed(bases);
    return texts.map((t, i) => {
      const v = vecs[i] as Float32Array;
      const h = createHash('sha256').update(t).digest();
      let seed = h.readUInt32LE(0) || 1;
      const out = new Float32Array(v.length);
      let n = 0;
      for (let j = 0; j < v.length; j++) {
        seed ^= seed << 13;
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        const noise = ((seed >>> 0) / 2 ** 32 - 0.5) * 0.1; // uniform, σ ≈ 0.03
        out[j] = (v[j] as number) + noise;
        n += (out[j] as number) ** 2;
      }
      n = Math.sqrt(n);
      for (let j = 0; j < out.length; j++) out[j] = (out[j] as number) / n;
      return out;
    });
  }
}

const NAMES = ['Caroline', 'Melanie', 'Jon', 'Gina', 'John', 'Maria', 'Oscar', 'Bailey', 'Sweden', 'Paris'];
const VERBS = ['visited', 'painted', 'adopted', 'cooked', 'read', 'joined', 'started', 'finished', 'planned', 'loved'];
const THINGS = [
  'a pottery class',
  'the museum',
  'a charity race',
  'a sunrise painting',
  'a counseling workshop',
  'the beach',
  'a new guitar',
  'a road trip',
  'a support group',
  'a dance studio',
  'a garden',
  'a bakery',
  'a hiking trail',
  'a concert',
  'a book club',
];
const WHEN = [
  'last week',
  'yesterday',
  'in May',
  'over the summer',
  'this morning',
  'on the weekend',
  'two years ago',
  'after work',
];

function baseSentence(i: number): string {
  const a = NAMES[i % NAMES.length] as string;
  const b = NAMES[(i * 7 + 3) % NAMES.length] as string;
  return `${a} ${VERBS[(i * 3) % VERBS.length]} ${THINGS[(i * 5) % THINGS.length]} with ${b} ${WHEN[(i * 11) % WHEN.length]} and said it was number ${i % 97}`;
}

function syntheticSession(s: number, turns: number, bases: number): EpisodeRecorder {
  const list = Array.from({ length: turns }, (_, t) => {
    const k = s * turns + t;
    return { id: `D${s}:${t}`, speaker: t % 2 ? 'Melanie' : 'Caroline', text: `${baseSentence(k % bases)} #${k}` };
  });
  return {
    taskId: `synthetic/session-${s}`,
    env: 'bench',
    domain: 'conversation',
    instruction: `Synthetic session ${s}`,
    initial: {},
    steps: list.map((t, i) => ({ index: i, action: `${t.speaker}: ${t.text}` })),
    outcome: { reward: 1, success: true },
    meta: { kind: 'dialogue', turns: list },
  };
}

async function start(program: Awaited<ReturnType<typeof compile>>, s: HostServices) {
  const prims = new InstancePrimitives(s, { quotas: QUOTAS });
  const r = await ProgramInstance.start(program, prims, { limits: LIMITS, budget: { maxChars: 4000, maxImages: 2 } });
  if (!r.ok) throw new Error(r.error.message);
  return { inst: r.instance, prims };
}

async function compile() {
  const c = await compileProgram({ entryPath: resolveProgram('omni-simplemem').path });
  if (!c.ok) throw new Error('omni-simplemem does not compile');
  return c.program;
}

async function main() {
  const program = await compile();
  const rows: (string | number)[][] = [['measure', 'value', 'target', 'verdict']];
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  let allOk = true;

  // 1. LoCoMo conversations, cold cache each.
  const env = LocomoEnvironment.load({ models: resolveModels({}, {}) });
  const warm = new UseLiteEmbedder();
  await warm.embed(['warm the model workers']);
  for (const conv of env.data.conversations) {
    const s = services(new CachingEmbedder(new UseLiteEmbedder()));
    const { inst, prims } = await start(program, s);
    const turns = conv.sessions.reduce((n, x) => n + x.turns.length, 0);
    const t0 = performance.now();
    for (const session of conv.sessions) {
      await inst.setClock(session.time);
      const r = await inst.update(sessionEpisode(conv, session));
      if (!r.ok) throw new Error(r.error.message);
    }
    const secs = (performance.now() - t0) / 1000;
    allOk &&= secs <= 15;
    rows.push([
      `LoCoMo conversation ${conv.id}: ${turns} turns ingested, cold (s)`,
      fmt(secs, 1),
      '<= 15',
      verdict(secs <= 15),
    ]);
    rows.push([`  ingestion rate (turns/s)`, fmt(turns / secs, 1), '', '']);
    inst.dispose();
    prims.dispose();
  }

  // 2. Synthetic scale.
  const base = new CachingEmbedder(new UseLiteEmbedder());
  const BASES = 2000;
  await base.embed(Array.from({ length: BASES }, (_, i) => baseSentence(i)));
  const queries: PartialRecorder[] = Array.from({ length: 120 }, (_, i) => ({
    taskId: `q${i}`,
    env: 'bench',
    instruction: `When did ${NAMES[i % NAMES.length]} go to ${THINGS[(i * 7) % THINGS.length]}?`,
    initial: {},
    meta: {},
  }));
  const q0 = performance.now();
  await base.embed(queries.map((q) => q.instruction));
  const perQuery = (performance.now() - q0) / queries.length;
  const single = new UseLiteEmbedder();
  const s0 = performance.now();
  for (let i = 0; i < 5; i++) await single.embed([`a brand new question number ${i} about ${THINGS[i]}?`]);
  const newQueryMs = (performance.now() - s0) / 5;
  for (const size of [1_000, 10_000, 100_000]) {
    const s = services(new PerturbedEmbedder(base));
    const { inst, prims } = await start(program, s);
    const per = 20;
    const t0 = performance.now();
    for (let k = 0; k < size / per; k++) {
      const r = await inst.update(syntheticSession(k, per, BASES));
      if (!r.ok) throw new Error(`update at ${k * per} MAUs: ${r.error.message}`);
    }
    const ingestS = (performance.now() - t0) / 1000;
    const times: number[] = [];
    for (const [i, q] of queries.entries()) {
      const r = await inst.retrieve(q);
      if (!r.ok) throw new Error(r.error.message);
      if (i >= 20) times.push(r.ms);
    }
    const p50 = median(times);
    const target = size === 10_000 ? 20 : size === 100_000 ? 60 : undefined;
    if (target) allOk &&= p50 <= target;
    const heap = await inst.heapUsedBytes();
    rows.push([`${size.toLocaleString('en')} MAUs: ingestion (turns/s)`, fmt(size / ingestS, 0), '', '']);
    rows.push([`  retrieve p50 (ms)`, fmt(p50), target ? `<= ${target}` : '', target ? verdict(p50 <= target) : '']);
    rows.push([`  retrieve p95 (ms)`, fmt(quantile(times, 0.95)), '', '']);
    rows.push([
      `  isolate heap / host vector memory (MB)`,
      `${fmt((heap ?? 0) / 2 ** 20, 0)} / ${fmt(prims.vectors.usedBytes / 2 ** 20, 0)}`,
      '',
      '',
    ]);
    inst.dispose();
    prims.dispose();
  }
  rows.push([`offline model time to embed one new query (ms, not in the figures above)`, fmt(newQueryMs, 1), '', '']);
  rows.push([`  per query when batched (ms)`, fmt(perQuery, 1), '', '']);
  await closeHostServices();
  process.stdout.write(
    `bench:memory — Omni-SimpleMem (code profile) in the isolate, offline embeddings, node ${process.version}\n\n${table(rows)}\n`,
  );
  process.exitCode = allOk ? 0 : 1;
}

await main();
