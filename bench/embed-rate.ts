// Texts per second of the offline embedder on one backend with a given number of worker threads, measured as
// programs use it (UseLiteEmbedder: jobs planned by length, shared by the pool's workers), without any cache.
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
  vectors: Float32Array[];
}

export async function embedRate(backend: EmbedBackend, threads: number, texts: string[], callTexts = 64): Promise<RateRow> {
  const pool = new EmbedPool(threads, backend);
  try {
    const owner = new EmbedOwner();
    let started = performance.now();
    // One small job per worker, at once: every worker loads its model.
    await Promise.all(Array.from({ length: threads }, (_, i) => pool.run(owner, [`warm up ${i}`])));
    const loadSeconds = (performance.now() - started) / 1000;
    const embedder = new UseLiteEmbedder(backend, pool);
    const before = pool.stats();
    started = performance.now();
    // Calls of callTexts texts, all in flight at once, as concurrent programs and worlds ask.
    const calls: Promise<Float32Array[]>[] = [];
    for (let i = 0; i < texts.length; i += callTexts) calls.push(embedder.embed(texts.slice(i, i + callTexts), owner));
    const vectors = (await Promise.all(calls)).flat();
    const seconds = (performance.now() - started) / 1000;
    const after = pool.stats();
    return {
      backend,
      threads,
      loadSeconds,
      texts: texts.length,
      seconds,
      textsPerSecond: texts.length / seconds,
      utilisation: (after.busyMs - before.busyMs) / (threads * seconds * 1000),
      vectors,
    };
  } finally {
    await pool.close();
  }
}
