// USE-lite on ONNX Runtime's CPU kernels (onnxruntime-node; its binary ships in the npm package): the graph is
// built in memory from the TF.js weights (onnx-graph.mjs), texts are tokenized here (tokenizer.mjs). One
// intra-op thread: the pool runs one of these per core.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { useLiteModelDir } from './model-files.mjs';
import { buildUseLiteModel } from './onnx-graph.mjs';
import { UseTokenizer } from './tokenizer.mjs';
import { readTfjsWeights } from './weights.mjs';

const require = createRequire(import.meta.url);

/** Bias that keeps a padding position out of attention (what TF.js's graph adds). */
const PADDING_BIAS = -1e9;

/** @param {'fp32' | 'int8'} precision */
export async function loadOnnxBackend(precision) {
  const ort = require('onnxruntime-node');
  const dir = useLiteModelDir();
  const { bytes, maxTokens, dim } = buildUseLiteModel(readTfjsWeights(dir), { precision });
  const tokenizer = new UseTokenizer(JSON.parse(readFileSync(join(dir, 'vocab.json'), 'utf8')));
  const session = await ort.InferenceSession.create(bytes, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    // 'all' includes constant folding, which turns layer 0's products of initializers into tables (onnx-graph.mjs).
    graphOptimizationLevel: 'all',
  });
  return {
    name: `onnx-${precision}`,
    dim,
    /** @param {string[]} texts @returns {Promise<Float32Array>} n × dim, not yet unit length */
    async embed(texts) {
      // Only '' has no pieces (the pool sends ' ' for blank texts); give it the pieces of ' ' rather than none.
      const tokens = texts.map((t) => (t === '' ? tokenizer.encode(' ') : tokenizer.encode(t)).slice(0, maxTokens));
      const feeds = batchFeeds(ort, tokens);
      const { vectors } = await session.run(feeds);
      const flat = new Float32Array(vectors.data);
      vectors.dispose?.();
      return flat;
    },
    /** Frees the session's native memory before the thread ends. */
    async release() {
      await session.release();
    },
  };
}

/** The batch as the graph takes it (onnx-graph.mjs GRAPH_INPUTS): real tokens packed, slots for attention. */
export function batchFeeds(ort, tokens) {
  const batch = tokens.length;
  const length = Math.max(1, ...tokens.map((t) => t.length));
  const count = tokens.reduce((n, t) => n + t.length, 0);
  const ids = new BigInt64Array(count);
  const positions = new BigInt64Array(count);
  const gather = new BigInt64Array(count);
  const spread = new BigInt64Array(batch * length);
  const bias = new Float32Array(batch * length).fill(PADDING_BIAS);
  const mean = new Float32Array(batch * length);
  let row = 0;
  tokens.forEach((t, b) => {
    const weight = 1 / Math.max(1, t.length);
    for (let i = 0; i < t.length; i++, row++) {
      ids[row] = BigInt(t[i]);
      positions[row] = BigInt(i);
      gather[row] = BigInt(b * length + i);
      spread[b * length + i] = BigInt(row);
      bias[b * length + i] = 0;
      mean[b * length + i] = weight;
    }
  });
  return {
    ids: new ort.Tensor('int64', ids, [count]),
    positions: new ort.Tensor('int64', positions, [count]),
    spread: new ort.Tensor('int64', spread, [batch * length]),
    gather: new ort.Tensor('int64', gather, [count]),
    bias: new ort.Tensor('float32', bias, [batch, 1, 1, length]),
    mean: new ort.Tensor('float32', mean, [batch, 1, length]),
  };
}
