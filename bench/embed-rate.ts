// Texts per second of the offline embedder on one backend with a given number of worker threads, without any
// cache: either texts sent as programs send them (UseLiteEmbedder: calls planned into jobs by length, shared by
// the pool's workers), or jobs recorded from a real evaluation (locomo-jobs.ts) sent to the pool as they were.
import { type EmbedBackend } from '../sandbox/primitives/embed-backend.ts';
import { EmbedOwner } from '../sandbox/primitives/embed-owner.ts';
import { EmbedPool } from '../sandbox/primitives/embed-pool.ts';
import { UseLiteEmbedder } from '../sandbox/primitives/embed.ts';

export interface RateRow {
  backend: EmbedBackend;
  threads: number;
  /** Until every worker has its model loaded. */
  loadSeconds: number;
  texts: number;
  seconds: number;
  textsPerSecond: number;
  /** Worker-time busy over threads × wall time while the texts were embedded. */
  utilisation: number;
  /**
   * CPU seconds this process (workers and main thread) spent while the texts were embedded: unlike wall time,
   * it hardly moves when other jobs share the cores.
   */
  cpuSeconds: number;
  vectors: Float32Array[];
}

/** Calls of callTexts texts, all in flight at once, as concurrent programs and worlds ask. */
export function embedRate(backend: EmbedBackend, threads: number, texts: string[], callTexts = 64): Promise<RateRow> {
  return measureRate(backend, threads, texts.length, async (pool, owner) => {
    const embedder = new UseLiteEmbedder(backend, pool);
    const calls: Promise<Float32Array[]>[] = [];
    for (let i = 0; i < texts.length; i += callTexts) calls.push(embedder.embed(texts.slice(i, i + callTexts), owner));
    return (await Promise.all(calls)).flat();
  });
}

/** Recorded worker jobs (each a batch of texts, as the pool received it), all in flight at once. */
export function jobsRate(backend: EmbedBackend, threads: number, jobs: string[][]): Promise<RateRow> {
  const texts = jobs.reduce((n, j) => n + j.length, 0);
  return measureRate(backend, threads, texts, async (pool, owner) => (await Promise.all(jobs.map((j) => pool.run(owner, j)))).flat());
}

async function measureRate(
  backend: EmbedBackend,
  threads: number,
  texts: number,
  send: (pool: EmbedPool, owner: EmbedOwner) => Promise<Float32Array[]>,
): Promise<RateRow> {
  const pool = new EmbedPool(threads, backend);
  try {
    const owner = new EmbedOwner();
    let started = performance.now();
    // One small job per worker, at once: every worker loads its model.
    await Promise.all(Array.from({ length: threads }, (_, i) => pool.run(owner, [`warm up ${i}`])));
    const loadSeconds = (performance.now() - started) / 1000;
    const before = pool.stats();
    const cpu = process.cpuUsage();
    started = performance.now();
    const vectors = await send(pool, owner);
    const seconds = (performance.now() - started) / 1000;
    const { user, system } = process.cpuUsage(cpu);
    const after = pool.stats();
    return {
      backend,
      threads,
      loadSeconds,
      texts,
      seconds,
      textsPerSecond: texts / seconds,
      utilisation: (after.busyMs - before.busyMs) / (threads * seconds * 1000),
      cpuSeconds: (user + system) / 1e6,
      vectors,
    };
  } finally {
    await pool.close();
  }
}
