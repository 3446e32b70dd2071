// A cache in front of an embedder, keyed by model id and text: every candidate program in a search re-embeds the
// same episodes. An in-memory LRU bounded in bytes answers at once (so a retrieve whose texts are known never
// waits); behind it, optionally, the on-disk store shared with later runs and other processes. A text being
// embedded for one caller is not embedded again for another who asks meanwhile: the second waits for the first
// (and embeds it itself only if the first caller's work is cancelled). An exported memory ships the vectors it
// used as JSON lines (loadFile / writeFile).
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import type { EmbedOwner } from './embed-owner.ts';
import { embeddingKey, KEY_BYTES, MAX_DIM } from './embed-record.ts';
import type { EmbeddingStore } from './embed-store.ts';
import type { TextEmbedder } from './text-embedder.ts';

export interface CachingOptions {
  /** Bytes of vectors held in memory (default 128 MiB). */
  memoryBytes?: number;
  /** The on-disk store behind the memory, if any. */
  store?: EmbeddingStore;
}

/** A line of an embeddings.jsonl longer than this is not one this code wrote (a 65,536-d vector is ~350 KB). */
const MAX_LINE_CHARS = 400_000;
const CHUNK = 1 << 20;

export class CachingEmbedder implements TextEmbedder {
  readonly id: string;
  readonly offline: boolean;
  private readonly memory = new Map<string, Float32Array>();
  private memoryUsed = 0;
  private readonly memoryBytes: number;
  private readonly store: EmbeddingStore | undefined;
  /** Vectors being computed now, by key. */
  private readonly inflight = new Map<string, Promise<Float32Array>>();
  hits = 0;
  misses = 0;
  /** Texts another caller was already embedding: waited for, not embedded again. */
  joined = 0;

  constructor(
    private readonly inner: TextEmbedder,
    options: CachingOptions = {},
  ) {
    this.id = inner.id;
    this.offline = inner.offline;
    this.memoryBytes = options.memoryBytes ?? 128 * 2 ** 20;
    this.store = options.store;
  }

  cached(texts: string[]): Float32Array[] | undefined {
    const keys = texts.map((t) => embeddingKey(this.id, t));
    if (!keys.every((k) => this.memory.has(k))) return undefined;
    this.hits += texts.length;
    return keys.map((k) => this.recall(k) as Float32Array);
  }

  async embed(texts: string[], owner?: EmbedOwner): Promise<Float32Array[]> {
    const keys = texts.map((t) => embeddingKey(this.id, t));
    const out: (Float32Array | undefined)[] = keys.map((k) => this.recall(k));
    let missing = indicesOf(out);
    if (missing.length && this.store) {
      const unique = [...new Set(missing.map((i) => keys[i] as string))];
      const found = await this.store.get(unique);
      const byKey = new Map(unique.map((k, j) => [k, found[j]]));
      for (const i of missing) {
        const v = byKey.get(keys[i] as string);
        if (v) {
          out[i] = v;
          this.remember(keys[i] as string, v);
        }
      }
      missing = indicesOf(out);
    }
    this.hits += texts.length - missing.length;
    if (missing.length) {
      const mine = new Map<string, string>();
      const theirs = new Map<string, Promise<Float32Array>>();
      for (const i of missing) {
        const key = keys[i] as string;
        const pending = this.inflight.get(key);
        if (pending) theirs.set(key, pending);
        else mine.set(key, texts[i] as string);
      }
      const computed = missing.filter((i) => mine.has(keys[i] as string)).length;
      this.misses += computed;
      this.joined += missing.length - computed;
      const got = mine.size ? await this.compute(mine, owner) : new Map<string, Float32Array>();
      for (const [key, pending] of theirs) {
        // The other caller's work ends with its owner; then this caller embeds the text for itself.
        const v = await pending.catch(() => undefined);
        got.set(key, v ?? ((await this.compute(new Map([[key, texts[keys.indexOf(key)] as string]]), owner)).get(key) as Float32Array));
      }
      for (const i of missing) out[i] = got.get(keys[i] as string);
    }
    return out as Float32Array[];
  }

  /**
   * Adds the vectors of a file in the JSON-lines format of writeFile (an exported memory ships its embeddings so),
   * reading it in bounded chunks and only as far as memory holds; lines that are not valid entries are skipped.
   * Returns how many were added (0 when the file is missing, not a plain file, or a link).
   */
  loadFile(file: string): number {
    let fd: number;
    try {
      fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch {
      return 0;
    }
    let n = 0;
    try {
      if (!fstatSync(fd).isFile()) return 0;
      const buf = Buffer.alloc(CHUNK);
      let carry = '';
      let skipping = false;
      for (let read = readSync(fd, buf, 0, CHUNK, null); read > 0; read = readSync(fd, buf, 0, CHUNK, null)) {
        const lines = (carry + buf.toString('latin1', 0, read)).split('\n');
        carry = lines.pop() as string;
        for (const line of lines) {
          if (skipping) {
            skipping = false;
            continue;
          }
          const entry = parseLine(line);
          if (!entry) continue;
          if (this.memoryUsed + entry[1].byteLength > this.memoryBytes) return n;
          this.remember(entry[0], entry[1]);
          n++;
        }
        if (carry.length > MAX_LINE_CHARS) {
          carry = '';
          skipping = true;
        }
      }
      const last = skipping ? undefined : parseLine(carry);
      if (last && this.memoryUsed + last[1].byteLength <= this.memoryBytes) {
        this.remember(last[0], last[1]);
        n++;
      }
      return n;
    } finally {
      closeSync(fd);
    }
  }

  /** Writes every vector held in memory to a file in JSON lines (replacing it), written in bounded chunks. */
  writeFile(file: string): void {
    const fd = openSync(file, 'w');
    try {
      let chunk: string[] = [];
      let chars = 0;
      const flush = () => {
        if (chunk.length) writeSync(fd, chunk.join(''));
        chunk = [];
        chars = 0;
      };
      for (const [k, v] of this.memory) {
        const line = `${JSON.stringify({ k: Buffer.from(k, 'latin1').toString('base64'), v: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') })}\n`;
        chunk.push(line);
        chars += line.length;
        if (chars >= CHUNK) flush();
      }
      flush();
    } finally {
      closeSync(fd);
    }
  }

  /** Embeds distinct texts (by key) with the inner embedder, remembers and stores them; others may wait on them. */
  private compute(entries: Map<string, string>, owner?: EmbedOwner): Promise<Map<string, Float32Array>> {
    const keys = [...entries.keys()];
    const run = this.inner.embed([...entries.values()], owner).then((vectors) => {
      if (vectors.length !== keys.length) throw new Error(`the embedder returned ${vectors.length} vectors for ${keys.length} texts`);
      const fresh = new Map(keys.map((k, j) => [k, vectors[j] as Float32Array]));
      for (const [k, v] of fresh) this.remember(k, v);
      this.store?.put([...fresh]);
      return fresh;
    });
    for (const k of keys) {
      const one = run.then((m) => m.get(k) as Float32Array);
      one.catch(() => undefined);
      this.inflight.set(k, one);
      void one
        .finally(() => {
          if (this.inflight.get(k) === one) this.inflight.delete(k);
        })
        .catch(() => undefined);
    }
    return run;
  }

  /** The vector held for a key, marked as recently used. */
  private recall(key: string): Float32Array | undefined {
    const v = this.memory.get(key);
    if (v) {
      this.memory.delete(key);
      this.memory.set(key, v);
    }
    return v;
  }

  private remember(key: string, v: Float32Array): void {
    const old = this.memory.get(key);
    if (old) {
      this.memory.delete(key);
      this.memoryUsed -= old.byteLength;
    }
    this.memory.set(key, v);
    this.memoryUsed += v.byteLength;
    for (const [k, oldest] of this.memory) {
      if (this.memoryUsed <= this.memoryBytes || k === key) break;
      this.memory.delete(k);
      this.memoryUsed -= oldest.byteLength;
    }
  }
}

const indicesOf = (vs: (Float32Array | undefined)[]): number[] => vs.flatMap((v, i) => (v ? [] : [i]));

/** One `{"k": base64 key, "v": base64 float32s}` line, checked, or undefined. */
function parseLine(line: string): [string, Float32Array] | undefined {
  if (!line || line.length > MAX_LINE_CHARS) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  const { k, v } = (parsed ?? {}) as { k?: unknown; v?: unknown };
  if (typeof k !== 'string' || typeof v !== 'string' || k.length > 64) return undefined;
  const key = Buffer.from(k, 'base64');
  const bytes = Buffer.from(v, 'base64');
  if (key.length !== KEY_BYTES || bytes.length === 0 || bytes.length % 4 !== 0 || bytes.length / 4 > MAX_DIM) return undefined;
  const vector = new Float32Array(bytes.length / 4);
  for (let i = 0; i < vector.length; i++) {
    const x = bytes.readFloatLE(4 * i);
    if (!Number.isFinite(x)) return undefined;
    vector[i] = x;
  }
  return [key.toString('latin1'), vector];
}
