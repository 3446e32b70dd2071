// Host services (embedding pool, OCR workers) are shared by every call in the process; the last call to finish
// releases their worker threads, so a library user's process can exit and concurrent calls never lose them.
import type { ResolvedModels } from '../foundation/llm/models.ts';
import { closeHostServices, createHostServices, type HostServices } from '../sandbox/primitives/index.ts';

let active = 0;

const FLAG = '--no-node-snapshot';

/**
 * isolated-vm 5 crashes Node 20 unless its startup snapshot is off, and a process cannot turn it off for itself:
 * the CLI re-runs itself with the flag; a library user starts node with it (or NODE_OPTIONS=--no-node-snapshot).
 */
export function assertSnapshotOff(): void {
  if (process.execArgv.includes(FLAG) || (process.env.NODE_OPTIONS ?? '').split(/\s+/).includes(FLAG)) return;
  throw new Error(`automemo runs programs in isolated-vm, which needs Node's ${FLAG} flag on Node 20: start node with it (node ${FLAG} your-script.js) or set NODE_OPTIONS=${FLAG}`);
}

export async function withHost<T>(models: ResolvedModels, work: (services: HostServices) => Promise<T>): Promise<T> {
  assertSnapshotOff();
  active++;
  try {
    return await work(createHostServices(models));
  } finally {
    active--;
    if (active === 0) await closeHostServices();
  }
}
