// The offline embedder's backends: ONNX Runtime (fp32 and int8) computes USE-lite from the same weights as TF.js,
// the workers say which engine they run, a text's vector does not depend on its batch, and the cache never
// serves one backend's vectors for another's.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../foundation/paths.ts';
import { EMBED_BACKENDS, embedBackendFromEnv, onnxRuntimeAvailable } from '../../../sandbox/primitives/embed-backend.ts';
import { EmbedOwner } from '../../../sandbox/primitives/embed-owner.ts';
import { EmbedPool } from '../../../sandbox/primitives/embed-pool.ts';
import { closeEmbedPool, createTextEmbedder, UseLiteEmbedder } from '../../../sandbox/primitives/embed.ts';

/** LoCoMo's first conversation's turns, and texts that test the tokenizer's edges. */
function sampleTexts(): string[] {
  const doc = JSON.parse(readFileSync(join(repoRoot, 'envs', 'locomo', 'data', '26.json'), 'utf8')) as Record<string, unknown>;
  const turns = Object.entries(doc)
    .filter(([k]) => /^session_\d+$/.test(k))
    .flatMap(([, v]) => (v as { speaker: string; text: string }[]).map((t) => `${t.speaker}: ${t.text}`));
  const long = turns.slice(0, 80).join('\n');
  return [
    ...turns.slice(0, 90),
    long, // past the model's 128 tokens: both cut it there
    'x',
    ' ',
    '  double  spaces and\ttabs\nand new lines ',
    'emoji 😀 and snow ☃, 日本語のテキスト, Ωmega, ﬁ ligature ①',
    ':00 12:00 ”5 — pieces with odd scores',
    'ℌ𝔢𝔩𝔩𝔬 𝕎𝕠𝕣𝕝𝕕 \uD800 lone surrogate',
  ];
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + v * (b[i] as number), 0);

describe.skipIf(!onnxRuntimeAvailable())('ONNX Runtime backends', () => {
  const pools = { tfjs: new EmbedPool(1, 'tfjs'), onnx: new EmbedPool(1, 'onnx'), 'onnx-int8': new EmbedPool(1, 'onnx-int8') };
  const texts = sampleTexts();
  const vectors = (backend: keyof typeof pools) => new UseLiteEmbedder(backend, pools[backend]).embed(texts);
  const results = Promise.all([vectors('tfjs'), vectors('onnx'), vectors('onnx-int8')]);
  afterAll(() => Promise.all(Object.values(pools).map((p) => p.close())));

  it('runs the engine it names in its workers', async () => {
    await results;
    expect(pools.tfjs.running).toBe('tfjs-wasm');
    expect(pools.onnx.running).toBe('onnx-fp32');
    expect(pools['onnx-int8'].running).toBe('onnx-int8');
  });

  it('fp32 gives TF.js\'s vectors up to float rounding; int8 stays close', async () => {
    const [tfjs, fp32, int8] = await results;
    for (let i = 0; i < texts.length; i++) {
      const a = tfjs[i] as Float32Array;
      expect(a).toHaveLength(512);
      expect(Math.max(...(fp32[i] as Float32Array).map((x, j) => Math.abs(x - (a[j] as number))))).toBeLessThan(1e-5);
      expect(dot(int8[i] as Float32Array, a)).toBeGreaterThan(0.998);
    }
  });

  it('gives a text the same vector alone as in any batch', async () => {
    const [, fp32, int8] = await results;
    for (const backend of ['onnx', 'onnx-int8'] as const) {
      const inBatch = backend === 'onnx' ? fp32 : int8;
      const owner = new EmbedOwner();
      for (const i of [0, 17, 90, 93]) {
        const [alone] = await pools[backend].run(owner, [texts[i] as string]);
        const diff = Math.max(...(alone as Float32Array).map((x, j) => Math.abs(x - ((inBatch[i] as Float32Array)[j] as number))));
        // Float rounding in attention differs with the batch's padded length (~1e-7 seen here); in int8, a row
        // scaled per row, an activation on a rounding boundary could still round the other way (never seen over
        // 200 texts), which moves a vector by far less than 1e-4. A per-batch scale moved them by 7e-3.
        expect(diff).toBeLessThan(backend === 'onnx' ? 1e-6 : 1e-4);
      }
    }
  });
});

describe('the embedding cache and backends', () => {
  const dir = mkdtempSync(join(tmpdir(), 'automemo-embed-backend-'));
  const saved = { cache: process.env.AUTOMEMO_CACHE_DIR, backend: process.env.AUTOMEMO_EMBED_BACKEND, noDisk: process.env.AUTOMEMO_NO_DISK_CACHE };
  const restore = (key: string, value: string | undefined) => (value === undefined ? delete process.env[key] : (process.env[key] = value));
  afterAll(async () => {
    await closeEmbedPool();
    restore('AUTOMEMO_CACHE_DIR', saved.cache);
    restore('AUTOMEMO_EMBED_BACKEND', saved.backend);
    restore('AUTOMEMO_NO_DISK_CACHE', saved.noDisk);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keys vectors by model and backend, each backend in its own folder', async () => {
    process.env.AUTOMEMO_CACHE_DIR = dir;
    delete process.env.AUTOMEMO_NO_DISK_CACHE;
    const backends = onnxRuntimeAvailable() ? (['tfjs', 'onnx', 'onnx-int8'] as const) : (['tfjs'] as const);
    const ids = new Set(Object.values(EMBED_BACKENDS).map((b) => b.id));
    expect(ids.size).toBe(3);
    for (const backend of backends) {
      process.env.AUTOMEMO_EMBED_BACKEND = backend;
      const embedder = createTextEmbedder(null) as ReturnType<typeof createTextEmbedder> & { misses: number };
      expect(embedder.id).toBe(EMBED_BACKENDS[backend].id);
      await embedder.embed(['the same text for every backend']);
      // Whatever other backends stored for this text, this one computed its own.
      expect(embedder.misses).toBe(1);
    }
    await closeEmbedPool();
    expect(readdirSync(join(dir, 'embeddings')).sort()).toEqual(backends.map((b) => EMBED_BACKENDS[b].id.replace(/[^\w.-]+/g, '_')).sort());
  });

  it('names a bad AUTOMEMO_EMBED_BACKEND', () => {
    expect(() => embedBackendFromEnv({ AUTOMEMO_EMBED_BACKEND: 'gpu' })).toThrow(/AUTOMEMO_EMBED_BACKEND must be "onnx", "onnx-int8" or "tfjs"; got "gpu"/);
    expect(embedBackendFromEnv({ AUTOMEMO_EMBED_BACKEND: 'tfjs' })).toBe('tfjs');
  });
});
