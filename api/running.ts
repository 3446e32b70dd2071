// Puts this process's automemo API where api/running-automemo.js reads it: an environment module that imports
// `automemo` without one installed beside it gets this instance (module-hooks.mjs), so its InfraError is the engine's.
import * as api from './index.ts';

(globalThis as Record<symbol, unknown>)[Symbol.for('automemo.running-api')] = api;
