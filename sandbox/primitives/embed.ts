// Text embedders for ctx.embed. Offline default: Universal Sentence Encoder lite (512-d) from the
// @energetic-ai packages, weights shipped in node_modules. With an `embedding` role configured: any
// OpenAI-compatible /embeddings endpoint. Both are wrapped in a cache, since every candidate program in a
// search re-embeds the same episodes.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { clientFor } from '../../engine/llm/client.ts';
import type { RoleModel } from '../../engine/llm/models.ts';
import { defaultCacheDir } from '../../engine/evaluate/episode-store.ts';

export interface TextEmbedder {
  /** Names the model; part of every cache key. */
  readonly id: string;
  readonly offline: boolean;
  embed(texts: string[]): Promise<Float32Array[]>;
  /** The vectors right away when every text is already known, else undefined (no work started). */
  cached?(texts: string[]): Float32Array[] | undefined;
}

function unit(v: ArrayLike<number>): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += (v[i] as number) * (v[i] as number);
  const n = Math.sqrt(s) || 1;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = (v[i] as number) / n;
  return out;
}

interface Job {
  id: number;
  texts: string[];
  resolve: (vectors: Float32Array[]) => void;
  reject: (err: Error) => void;
}

/**
 * Worker threads each holding the offline model: TF.js runs single-threaded, so a pool uses the machine's cores
 * and keeps the main thread (where the sandboxes run) free. Workers are referenced only while they have work, so
 * an idle pool never keeps the process alive; a crashed worker fails its jobs and is replaced on the next one.
 */
class EmbedPool {
  private readonly workers: { worker: Worker; ready: Promise<void>; busy: number }[] = [];
  private readonly jobs = new Map<number, Job>();
  private nextId = 1;

  constructor(readonly size: number) {}

  private spawn(slot: number) {
    const worker = new Worker(new URL('./embed-worker.mjs', import.meta.url));
    let markReady: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => {
      markReady = resolve;
    });
    const entry = { worker, ready, busy: 0 };
    worker.on('message', (m: { ready?: boolean; id?: number; dim?: number; flat?: Float32Array; error?: string }) => {
      if (m.ready) {
        if (entry.busy === 0) worker.unref();
        return markReady();
      }
      const job = this.jobs.get(m.id as number);
      if (!job) return;
      this.jobs.delete(job.id);
      entry.busy--;
      if (entry.busy === 0) worker.unref();
      if (m.error !== undefined) return job.reject(new Error(`offline embedding model failed: ${m.error}`));
      const dim = m.dim as number;
      const flat = m.flat as Float32Array;
      job.resolve(job.texts.map((_, i) => unit(flat.subarray(i * dim, (i + 1) * dim))));
    });
    worker.on('error', (err) => this.crashed(slot, err));
    worker.on('exit', (code) => {
      if (code !== 0) this.crashed(slot, new Error(`embedding worker exited with code ${code}`));
    });
    // Referenced while it loads the model (someone is waiting for it) and while it has jobs.
    this.workers[slot] = entry;
    return entry;
  }

  private crashed(slot: number, err: Error): void {
    const entry = this.workers[slot];
    if (!entry) return;
    delete this.workers[slot];
    for (const job of [...this.jobs.values()]) {
      if ((job as Job & { slot?: number }).slot === slot) {
        this.jobs.delete(job.id);
        job.reject(new Error(`offline embedding worker crashed: ${err.message}`));
      }
    }
  }

  /** Sends a job to the least busy worker (counted at dispatch, so a burst of jobs spreads over all workers). */
  async run(texts: string[]): Promise<Float32Array[]> {
    let slot = 0;
    for (let i = 1; i < this.size; i++) {
      if ((this.workers[i]?.busy ?? 0) < (this.workers[slot]?.busy ?? 0)) slot = i;
    }
    const entry = this.workers[slot] ?? this.spawn(slot);
    entry.busy++;
    entry.worker.ref();
    await entry.ready;
    return new Promise<Float32Array[]>((resolve, reject) => {
      const id = this.nextId++;
      this.jobs.set(id, Object.assign({ id, texts, resolve, reject }, { slot }));
      entry.worker.postMessage({ id, texts });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.filter(Boolean).map((w) => w.worker.terminate()));
    this.workers.length = 0;
  }
}

let pool: EmbedPool | undefined;

/** Stops the embedding worker threads (they also never keep the process alive while idle). */
export async function closeEmbedPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.close();
}

export class UseLiteEmbedder implements TextEmbedder {
  readonly id = 'use-lite-512';
  readonly offline = true;
  private static readonly BATCH = 32;

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    pool ??= new EmbedPool(Math.max(1, Math.min(2, availableParallelism())));
    const p = pool;
    // A batch is padded to its longest text, so texts of similar length are batched together; batches go to
    // the least busy worker.
    const order = texts.map((_, i) => i).sort((a, b) => (texts[a] as string).length - (texts[b] as string).length);
    // Even a small call is split so every worker takes a share.
    const size = Math.max(1, Math.min(UseLiteEmbedder.BATCH, Math.ceil(order.length / p.size)));
    const batches: number[][] = [];
    for (let i = 0; i < order.length; i += size) batches.push(order.slice(i, i + size));
    const out = new Array<Float32Array>(texts.length);
    await Promise.all(
      batches.map(async (idx) => {
        // USE maps the empty string to NaN; embed a space instead.
        const batch = idx.map((j) => ((texts[j] as string).trim() === '' ? ' ' : (texts[j] as string)));
        const vectors = await p.run(batch);
        idx.forEach((j, k) => {
          out[j] = vectors[k] as Float32Array;
        });
      }),
    );
    return out;
  }
}

export class OpenAIEmbedder implements TextEmbedder {
  readonly id: string;
  readonly offline = false;

  constructor(private readonly model: RoleModel) {
    this.id = `openai:${model.baseURL ?? 'default'}:${model.model}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const res = await clientFor(this.model).embeddings.create({
      model: this.model.model,
      input: texts,
      encoding_format: 'float',
    });
    const rows = [...res.data].sort((a, b) => a.index - b.index);
    if (rows.length !== texts.length) {
      throw new Error(`embedding endpoint returned ${rows.length} vectors for ${texts.length} texts`);
    }
    return rows.map((r) => unit(r.embedding));
  }
}

const cacheLine = (k: string, v: Float32Array) => `${JSON.stringify({ k, v: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') })}\n`;

/**
 * LRU cache in front of an embedder, keyed by model id and text; optionally persisted to a file so later runs
 * (and other processes) skip the model for texts already seen. The file holds one JSON line per vector, each
 * written with a single append; a line that does not parse (a torn write) is skipped.
 */
export class CachingEmbedder implements TextEmbedder {
  readonly id: string;
  readonly offline: boolean;
  private readonly cache = new Map<string, Float32Array>();
  private loaded = false;
  hits = 0;
  misses = 0;

  constructor(
    private readonly inner: TextEmbedder,
    private readonly maxEntries = 200_000,
    private readonly file?: string,
  ) {
    this.id = inner.id;
    this.offline = inner.offline;
  }

  private load(): void {
    if (this.loaded || !this.file) return;
    this.loaded = true;
    this.loadFile(this.file);
  }

  /** Adds the vectors of a file in the cache's format (an exported memory ships its embeddings so); returns how many. */
  loadFile(file: string): number {
    if (!existsSync(file)) return 0;
    let n = 0;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        const { k, v } = JSON.parse(line) as { k: string; v: string };
        const buf = Buffer.from(v, 'base64');
        this.cache.set(k, new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)));
        n++;
      } catch {
        // a torn or foreign line: skip it
      }
    }
    return n;
  }

  /** Writes every vector held to a file in the cache's format (replacing it). */
  writeFile(file: string): void {
    writeFileSync(file, [...this.cache].map(([k, v]) => cacheLine(k, v)).join(''));
  }

  private persist(entries: [string, Float32Array][]): void {
    if (!this.file || entries.length === 0) return;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      appendFileSync(this.file, entries.map(([k, v]) => cacheLine(k, v)).join(''));
    } catch {
      // The cache is an optimisation: a read-only disk must not fail an evaluation.
    }
  }

  private key(text: string): string {
    return createHash('sha1').update(this.id).update('\u0000').update(text).digest('base64');
  }

  cached(texts: string[]): Float32Array[] | undefined {
    this.load();
    const keys = texts.map((t) => this.key(t));
    const out: Float32Array[] = [];
    for (const k of keys) {
      const v = this.cache.get(k);
      if (!v) return undefined;
      out.push(v);
    }
    this.hits += keys.length;
    for (const k of keys) this.touch(k);
    return out;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    this.load();
    const keys = texts.map((t) => this.key(t));
    const out: (Float32Array | undefined)[] = keys.map((k) => this.cache.get(k));
    const missing: number[] = [];
    out.forEach((v, i) => (v ? this.hits++ : missing.push(i)));
    if (missing.length) {
      this.misses += missing.length;
      const unique = [...new Set(missing.map((i) => texts[i] as string))];
      const vecs = await this.inner.embed(unique);
      const byText = new Map(unique.map((t, i) => [t, vecs[i] as Float32Array]));
      const fresh: [string, Float32Array][] = [];
      for (const i of missing) {
        const v = byText.get(texts[i] as string) as Float32Array;
        out[i] = v;
        if (!this.cache.has(keys[i] as string)) fresh.push([keys[i] as string, v]);
        this.remember(keys[i] as string, v);
      }
      this.persist(fresh);
    }
    for (const k of keys) this.touch(k);
    return out as Float32Array[];
  }

  private remember(key: string, v: Float32Array): void {
    this.cache.set(key, v);
    if (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value as string);
  }

  private touch(key: string): void {
    const v = this.cache.get(key);
    if (v) {
      this.cache.delete(key);
      this.cache.set(key, v);
    }
  }
}

/** The role's embedder behind a cache kept in the cache folder (AUTOMEMO_NO_DISK_CACHE=1: memory only). */
export function createTextEmbedder(model: RoleModel | null): TextEmbedder {
  const inner = model ? new OpenAIEmbedder(model) : new UseLiteEmbedder();
  const file = process.env.AUTOMEMO_NO_DISK_CACHE ? undefined : join(defaultCacheDir(), 'embeddings', `${inner.id.replace(/[^\w.-]+/g, '_')}.jsonl`);
  return new CachingEmbedder(inner, 200_000, file);
}
