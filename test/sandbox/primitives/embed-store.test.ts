// The on-disk embedding cache: bounded in size, never read whole, shared by processes, and a cache only — a
// damaged, missing or unwritable folder answers misses, never errors.
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { CachingEmbedder, embedCacheCapBytes, OpenAIEmbedder } from '../../../sandbox/primitives/embed.ts';
import { embeddingKey, RECORD_HEAD, recordBytes, SEGMENT_HEADER } from '../../../sandbox/primitives/embed-record.ts';
import { EmbeddingStore } from '../../../sandbox/primitives/embed-store.ts';
import { repoRoot } from '../../../foundation/paths.ts';
import { OpenAITestServer } from '../../support/openai-server.ts';

const DIM = 64;
const RECORD = recordBytes(DIM);
const scratch = mkdtempSync(join(tmpdir(), 'automemo-embed-store-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let n = 0;
const freshDir = () => join(scratch, `store-${n++}`);
const key = (i: number) => embeddingKey('test-model', `text ${i}`);
const vector = (i: number) => Float32Array.from({ length: DIM }, (_, d) => Math.sin(i * 7 + d));
const entries = (from: number, to: number): [string, Float32Array][] => Array.from({ length: to - from }, (_, j) => [key(from + j), vector(from + j)]);
const keys = (from: number, to: number) => Array.from({ length: to - from }, (_, j) => key(from + j));
const segments = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('seg-'));
const diskBytes = (dir: string) => segments(dir).reduce((s, f) => s + statSync(join(dir, f)).size, 0);
const hitsOf = (got: (Float32Array | undefined)[]) => got.filter(Boolean).length;

async function written(dir: string, list: [string, Float32Array][], options = {}): Promise<void> {
  const store = new EmbeddingStore(dir, { capBytes: 1 << 20, ...options });
  store.put(list);
  await store.flush();
  await store.close();
}

describe('embedding store', () => {
  it('keeps vectors across store instances, exactly', async () => {
    const dir = freshDir();
    await written(dir, entries(0, 50));
    const store = new EmbeddingStore(dir, { capBytes: 1 << 20 });
    const got = await store.get([...keys(0, 50), key(999)]);
    expect(hitsOf(got)).toBe(50);
    expect(got[7]).toEqual(vector(7));
    expect(got[50]).toBeUndefined();
    await store.close();
  });

  it('stays under its size cap: the oldest segments go, new entries hit', async () => {
    const dir = freshDir();
    const cap = 40 * RECORD;
    const store = new EmbeddingStore(dir, { capBytes: cap, segmentBytes: 10 * RECORD, refreshMs: 0 });
    for (let round = 0; round < 20; round++) {
      store.put(entries(round * 7, round * 7 + 7));
      await store.flush();
      expect(diskBytes(dir), `after round ${round}`).toBeLessThanOrEqual(cap);
    }
    expect(store.bytes).toBe(diskBytes(dir));
    const newest = await store.get(keys(133, 140));
    expect(hitsOf(newest)).toBe(7);
    const oldest = await store.get(keys(0, 14));
    expect(hitsOf(oldest)).toBe(0);
    await store.close();
    // Another process's view agrees.
    const reader = new EmbeddingStore(dir, { capBytes: cap });
    expect(hitsOf(await reader.get(keys(133, 140)))).toBe(7);
    expect(hitsOf(await reader.get(keys(0, 14)))).toBe(0);
    await reader.close();
  });

  it('answers misses for torn, altered and garbage records, and finds the good records around them', async () => {
    const dir = freshDir();
    await written(dir, entries(0, 30));
    const [seg] = segments(dir);
    const file = join(dir, seg as string);
    const bytes = readFileSync(file);
    // Record 3's vector altered (its check fails), record 10's length field made huge (the scan must not skip
    // the records after it), and the last record torn in half.
    const at = (i: number) => SEGMENT_HEADER.length + i * RECORD;
    bytes.writeFloatLE(42, at(3) + RECORD_HEAD + 8);
    bytes.writeUInt32LE(60_000, at(10) + 24);
    writeFileSync(file, bytes.subarray(0, at(29) + RECORD / 2));
    // A file named like a segment full of garbage, one with garbage after a good header, and an empty one.
    writeFileSync(join(dir, 'seg-0000000000001-1-00000000.bin'), Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 131) % 256)));
    writeFileSync(join(dir, 'seg-0000000000002-1-00000000.bin'), Buffer.concat([SEGMENT_HEADER, Buffer.alloc(3000, 0xe3)]));
    writeFileSync(join(dir, 'seg-0000000000003-1-00000000.bin'), '');
    const store = new EmbeddingStore(dir, { capBytes: 1 << 20 });
    const got = await store.get(keys(0, 30));
    const missing = got.flatMap((v, i) => (v ? [] : [i]));
    expect(missing).toEqual([3, 10, 29]);
    expect(got[11]).toEqual(vector(11));
    await store.close();
  });

  it('answers misses when the folder is a file or cannot be created, and writes nothing', async () => {
    const file = join(scratch, 'not-a-folder');
    writeFileSync(file, 'hello');
    for (const dir of [file, join(file, 'below'), '/proc/automemo-cannot-write-here']) {
      const store = new EmbeddingStore(dir, { capBytes: 1 << 20, refreshMs: 0 });
      store.put(entries(0, 5));
      await store.flush();
      expect(hitsOf(await store.get(keys(0, 5)))).toBe(0);
      await store.close();
    }
    expect(readFileSync(file, 'utf8')).toBe('hello');
  });

  it('leaves files it did not name alone, even over the cap', async () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'notes.txt'), 'x'.repeat(10_000));
    const store = new EmbeddingStore(dir, { capBytes: 20 * RECORD, segmentBytes: 5 * RECORD });
    for (let i = 0; i < 10; i++) store.put(entries(i * 5, i * 5 + 5));
    await store.flush();
    await store.close();
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toHaveLength(10_000);
    expect(diskBytes(dir)).toBeLessThanOrEqual(20 * RECORD);
  });

  it('lets two stores append to one folder at once and read each other\'s entries', async () => {
    const dir = freshDir();
    const a = new EmbeddingStore(dir, { capBytes: 1 << 20, refreshMs: 0 });
    const b = new EmbeddingStore(dir, { capBytes: 1 << 20, refreshMs: 0 });
    for (let i = 0; i < 10; i++) {
      a.put(entries(i * 10, i * 10 + 5));
      b.put(entries(i * 10 + 5, i * 10 + 10));
    }
    await Promise.all([a.flush(), b.flush()]);
    expect(hitsOf(await a.get(keys(0, 100)))).toBe(100);
    expect(hitsOf(await b.get(keys(0, 100)))).toBe(100);
    expect(segments(dir)).toHaveLength(2);
    await Promise.all([a.close(), b.close()]);
  });

  it('lets two processes write at once without tearing each other\'s records', async () => {
    const dir = freshDir();
    const writer = join(import.meta.dirname, 'embed-store-writer.ts');
    const run = (from: number) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', writer, dir, String(from), String(from + 300)], { cwd: repoRoot });
    await Promise.all([run(0), run(300)]);
    const store = new EmbeddingStore(dir, { capBytes: 1 << 20 });
    const got = await store.get(keys(0, 600));
    expect(hitsOf(got)).toBe(600);
    expect(got[450]).toEqual(vector(450));
    await store.close();
  });
});

describe('caching embedder', () => {
  let server: OpenAITestServer;
  beforeAll(async () => {
    server = await OpenAITestServer.start({ embeddingDim: 6 });
  });
  afterAll(() => server.close());
  const endpoint = () => new OpenAIEmbedder(resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_EMBEDDING_MODEL: 'embed-1' }).embedding as never);
  const requests = () => server.requests.filter((r) => r.path.endsWith('/embeddings')).length;

  it('serves a later process from disk without asking the model', async () => {
    const dir = freshDir();
    const store = new EmbeddingStore(dir, { capBytes: 1 << 20 });
    const first = new CachingEmbedder(endpoint(), { store });
    const vectors = await first.embed(['alpha', 'beta']);
    const asked = requests();
    // Written in the background; a new store (a new process) reads it back.
    await store.flush();
    const second = new CachingEmbedder(endpoint(), { store: new EmbeddingStore(dir, { capBytes: 1 << 20 }) });
    expect(second.cached(['alpha'])).toBeUndefined();
    expect(await second.embed(['beta', 'alpha'])).toEqual([vectors[1], vectors[0]]);
    expect(requests()).toBe(asked);
    expect(second.cached(['alpha'])).toEqual([vectors[0]]);
  });

  it('treats a broken store as a miss: the program still gets its vectors', async () => {
    const file = join(scratch, 'store-is-a-file');
    writeFileSync(file, 'x');
    const emb = new CachingEmbedder(endpoint(), { store: new EmbeddingStore(file, { capBytes: 1 << 20 }) });
    const [v] = await emb.embed(['gamma']);
    expect(v).toHaveLength(6);
  });

  it('holds at most its memory budget', async () => {
    const emb = new CachingEmbedder(endpoint(), { memoryBytes: 10 * 6 * 4 });
    await emb.embed(Array.from({ length: 30 }, (_, i) => `text ${i}`));
    expect(emb.cached(['text 29'])).toBeDefined();
    expect(emb.cached(['text 0'])).toBeUndefined();
    const file = join(scratch, 'held.jsonl');
    emb.writeFile(file);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(10);
  });

  it('ships vectors in a file and reads back only valid lines, bounded', async () => {
    const emb = new CachingEmbedder(endpoint());
    const vectors = await emb.embed(['one', 'two', 'three']);
    const file = join(scratch, 'embeddings.jsonl');
    emb.writeFile(file);
    appendFileSync(file, `not json\n{"k": 5, "v": "AAAA"}\n{"k":"${'A'.repeat(28)}","v":"AAD4fw=="}\n{"k":"x","v":"${'A'.repeat(500_000)}"}\n{"torn`);
    const loaded = new CachingEmbedder(endpoint());
    expect(loaded.loadFile(file)).toBe(3);
    expect(loaded.cached(['three', 'one'])).toEqual([vectors[2], vectors[0]]);
    expect(loaded.loadFile(join(scratch, 'missing.jsonl'))).toBe(0);
    expect(loaded.loadFile(scratch)).toBe(0);
    // A memory smaller than the file: reading stops when it is full.
    const small = new CachingEmbedder(endpoint(), { memoryBytes: 2 * 6 * 4 });
    expect(small.loadFile(file)).toBe(2);
  });

  it('reads its cap from AUTOMEMO_EMBED_CACHE_MB, and says what is wrong with a bad one', () => {
    expect(embedCacheCapBytes({})).toBe(256 * 2 ** 20);
    expect(embedCacheCapBytes({ AUTOMEMO_EMBED_CACHE_MB: '64' })).toBe(64 * 2 ** 20);
    expect(embedCacheCapBytes({ AUTOMEMO_EMBED_CACHE_MB: '0' })).toBe(0);
    expect(() => embedCacheCapBytes({ AUTOMEMO_EMBED_CACHE_MB: 'lots' })).toThrow(/AUTOMEMO_EMBED_CACHE_MB must be a whole number of megabytes.*"lots"/);
  });
});

// Keeps the torn-file helper honest: truncation below the header leaves an unreadable segment, not an error.
it('reads a segment cut inside its header as empty', async () => {
  const dir = freshDir();
  await written(dir, entries(0, 3));
  truncateSync(join(dir, segments(dir)[0] as string), 5);
  const store = new EmbeddingStore(dir, { capBytes: 1 << 20 });
  expect(hitsOf(await store.get(keys(0, 3)))).toBe(0);
  await store.close();
});
