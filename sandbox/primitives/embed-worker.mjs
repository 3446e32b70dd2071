// A worker thread holding one copy of the offline embedding model (USE-lite) on the backend the pool names in
// workerData: 'onnx' (ONNX Runtime, fp32), 'onnx-int8' (ONNX Runtime, int8) or 'tfjs' (TF.js WebAssembly). Plain JavaScript so it loads without a
// TypeScript loader. Messages: {id, texts} in; {id, dim, flat: Float32Array(n × dim)} or {id, error} out; first
// {ready, backend} once the model is loaded. {stop: true} ends the worker once the batch in hand is done: a worker
// terminated while ONNX Runtime runs a batch on its own threads aborts the whole process when the run finishes
// (the native callback throws into a torn-down environment), so the pool asks instead of terminating.
import { parentPort, workerData } from 'node:worker_threads';

const backend = workerData?.backend ?? 'tfjs';
const model =
  backend === 'onnx' || backend === 'onnx-int8'
    ? await (await import('./use-lite/backend-onnx.mjs')).loadOnnxBackend(backend === 'onnx' ? 'fp32' : 'int8')
    : await (await import('./use-lite/backend-tfjs.mjs')).loadTfjsBackend();

let busy = false;
let stopping = false;

async function stop() {
  await model.release?.();
  parentPort.close();
}

parentPort.on('message', async ({ id, texts, stop: asked }) => {
  if (asked) {
    stopping = true;
    if (!busy) await stop();
    return;
  }
  busy = true;
  try {
    const flat = await model.embed(texts);
    parentPort.postMessage({ id, dim: flat.length / Math.max(1, texts.length), flat }, [flat.buffer]);
  } catch (err) {
    parentPort.postMessage({ id, error: String(err?.message ?? err) });
  } finally {
    busy = false;
  }
  if (stopping) await stop();
});
parentPort.postMessage({ ready: true, backend: model.name });
