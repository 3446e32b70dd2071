// A worker thread holding one copy of the offline embedding model (USE-lite) on the backend the pool names in
// workerData: 'onnx' (ONNX Runtime, fp32), 'onnx-int8' (ONNX Runtime, int8) or 'tfjs' (TF.js WebAssembly). Plain JavaScript so it loads without a
// TypeScript loader. Messages: {id, texts} in; {id, dim, flat: Float32Array(n × dim)} or {id, error} out; first
// {ready, backend} once the model is loaded.
import { parentPort, workerData } from 'node:worker_threads';

const backend = workerData?.backend ?? 'tfjs';
const model =
  backend === 'onnx' || backend === 'onnx-int8'
    ? await (await import('./use-lite/backend-onnx.mjs')).loadOnnxBackend(backend === 'onnx' ? 'fp32' : 'int8')
    : await (await import('./use-lite/backend-tfjs.mjs')).loadTfjsBackend();

parentPort.on('message', async ({ id, texts }) => {
  try {
    const flat = await model.embed(texts);
    parentPort.postMessage({ id, dim: flat.length / Math.max(1, texts.length), flat }, [flat.buffer]);
  } catch (err) {
    parentPort.postMessage({ id, error: String(err?.message ?? err) });
  }
});
parentPort.postMessage({ ready: true, backend: model.name });
