// Text embedders for ctx.embed. Offline default: Universal Sentence Encoder lite (512-d) from the
// @energetic-ai packages, weights shipped in node_modules, run by a pool of worker threads (embed-pool.ts) on
// ONNX Runtime or TF.js (embed-backend.ts). With an
// `embedding` role configured: any OpenAI-compatible /embeddings endpoint. Both sit behind a cache
// (embed-cache.ts), kept on disk in a bounded store (embed-store.ts) unless AUTOMEMO_NO_DISK_CACHE=1.
// Work is filed under the owner that asked (embed-owner.ts), so it ends with the program instance that asked.
import { join } from 'node:path';
import { clientFor } from '../../foundation/llm/client.ts';
import type { RoleModel } from '../../foundation/llm/models.ts';
import { defaultCacheDir } from '../../foundation/cache-dir.ts';
import { EMBED_BACKENDS, type EmbedBackend, embedBackendFromEnv } from './embed-backend.ts';
import { CachingEmbedder } from './embed-cache.ts';
import { type EmbedOwner, HOST_OWNER } from './embed-owner.ts';
import { type EmbedPool, embedPool, stopEmbedPool, unit } from './embed-pool.ts';
import { flushEmbeddingStores, sharedEmbeddingStore } from './embed-store.ts';
import type { TextEmbedder } from './text-embedder.ts';
import type { EnvVars } from '../../foundation/env-vars.ts';

export { CachingEmbedder } from './embed-cache.ts';
export type { TextEmbedder } from './text-embedder.ts';

/** Stops the embedding worker threads and finishes the cache writes under way, so a process can exit. */
export async function closeEmbedPool(): Promise<void> {
  await Promise.all([stopEmbedPool(), flushEmbeddingStores()]);
}

/**
 * Texts per worker job at most. Smaller jobs keep ONNX Runtime's activations in the core's cache: 16 texts (and
 * 4,000 padded characters) measured 7–9% less CPU per text than 32 (and 8,000), TF.js's the same within 1%.
 */
export const BATCH_TEXTS = 16;
/**
 * Characters per job at most, counted as the batch is padded (texts × the longest): the model's time grows
 * steeply with padded length, and a job is what another program may have to wait behind.
 */
const BATCH_PADDED_CHARS = 4_000;

/**
 * Splits texts into jobs: sorted by length so similar lengths share a job (a job is padded to its longest text),
 * at most BATCH_TEXTS texts and BATCH_PADDED_CHARS padded characters each, and a small call still split so every
 * worker takes a share. Returns the texts' indices per job.
 */
export function planBatches(texts: string[], workers: number): number[][] {
  const order = texts.map((_, i) => i).sort((a, b) => (texts[a] as string).length - (texts[b] as string).length);
  const most = Math.max(1, Math.min(BATCH_TEXTS, Math.ceil(order.length / Math.max(1, workers))));
  const batches: number[][] = [];
  let current: number[] = [];
  for (const i of order) {
    const padded = (current.length + 1) * Math.max(1, (texts[i] as string).length);
    if (current.length && (current.length >= most || padded > BATCH_PADDED_CHARS)) {
      batches.push(current);
      current = [];
    }
    current.push(i);
  }
  if (current.length) batches.push(current);
  return batches;
}

export class UseLiteEmbedder implements TextEmbedder {
  /** Model and backend: vectors of one backend are never served for the other. */
  readonly id: string;
  readonly offline = true;

  /** `pool`: the workers to use (default: the process's pool for the backend). */
  constructor(
    readonly backend: EmbedBackend = embedBackendFromEnv(),
    private readonly pool?: EmbedPool,
  ) {
    this.id = EMBED_BACKENDS[backend].id;
  }

  async embed(texts: string[], owner: EmbedOwner = HOST_OWNER): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const pool = this.pool ?? embedPool(this.backend);
    const out = new Array<Float32Array>(texts.length);
    await Promise.all(
      planBatches(texts, pool.size).map(async (idx) => {
        // USE maps the empty string to NaN; embed a space instead.
        const batch = idx.map((j) => ((texts[j] as string).trim() === '' ? ' ' : (texts[j] as string)));
        const vectors = await pool.run(owner, batch);
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

  async embed(texts: string[], owner: EmbedOwner = HOST_OWNER): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    // The request stops when its program instance ends. The SDK adds an abort listener to the signal it is given and
    // never removes it, so it gets a signal of its own, tied to the owner's only while the request is in flight: on
    // the owner's signal listeners piled up, one per request (Node's MaxListenersExceededWarning at the 11th).
    const request = new AbortController();
    const stop = () => request.abort(owner.signal.reason);
    owner.signal.addEventListener('abort', stop, { once: true });
    if (owner.signal.aborted) stop();
    const res = await clientFor(this.model)
      .embeddings.create({ model: this.model.model, input: texts, encoding_format: 'float' }, { signal: request.signal })
      .finally(() => owner.signal.removeEventListener('abort', stop));
    const rows = [...res.data].sort((a, b) => a.index - b.index);
    if (rows.length !== texts.length) {
      throw new Error(`embedding endpoint returned ${rows.length} vectors for ${texts.length} texts`);
    }
    return rows.map((r) => unit(r.embedding));
  }
}

const DEFAULT_CACHE_MB = 256;

/** The disk cache's cap from AUTOMEMO_EMBED_CACHE_MB (megabytes; 0 turns the disk cache off). */
export function embedCacheCapBytes(env: EnvVars = process.env): number {
  const raw = env.AUTOMEMO_EMBED_CACHE_MB;
  if (raw === undefined || raw.trim() === '') return DEFAULT_CACHE_MB * 2 ** 20;
  const mb = Number(raw);
  if (!Number.isInteger(mb) || mb < 0 || mb > 1_048_576) {
    throw new Error(`AUTOMEMO_EMBED_CACHE_MB must be a whole number of megabytes from 0 (no disk cache) to 1048576; got "${raw}"`);
  }
  return mb * 2 ** 20;
}

/** The role's embedder behind a cache, kept on disk in the cache folder unless AUTOMEMO_NO_DISK_CACHE=1. */
export function createTextEmbedder(model: RoleModel | null): TextEmbedder {
  const inner = model ? new OpenAIEmbedder(model) : new UseLiteEmbedder();
  const capBytes = embedCacheCapBytes();
  if (process.env.AUTOMEMO_NO_DISK_CACHE || capBytes === 0) return new CachingEmbedder(inner);
  const dir = join(defaultCacheDir(), 'embeddings', inner.id.replace(/[^\w.-]+/g, '_').slice(0, 120));
  return new CachingEmbedder(inner, { store: sharedEmbeddingStore(dir, { capBytes }) });
}
