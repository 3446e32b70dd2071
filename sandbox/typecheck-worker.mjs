// The type checker's thread (sandbox/typecheck-thread.ts): TypeScript and the parsed lib, contract and helper files
// stay here between checks, and a check that runs over its time or memory ends this thread, never the host's.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { typeChecker } = await import('./typecheck.ts');

parentPort.on('message', (m) => {
  try {
    const { diagnostics, ms } = typeChecker().check(m.entryPath, m.code);
    parentPort.postMessage({ id: m.id, diagnostics, ms });
  } catch (err) {
    // Only a broken checker throws (typecheck.ts): infrastructure, said as such by the host.
    parentPort.postMessage({ id: m.id, broken: String(err?.message ?? err) });
  }
});
parentPort.postMessage({ ready: true });
