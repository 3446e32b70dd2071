// Puts this process's automemo API where api/running-automemo.js reads it: an environment module that imports
// `automemo` without one installed beside it gets this instance (module-hooks.mjs), so its InfraError is the engine's.
// The entries import it (index.js, cli/main.ts, and the tests' setup), never a file of api/: the API imports
// environments.ts, so environments.ts importing this file would be an import circle.
import * as api from './index.ts';

(globalThis as Record<symbol, unknown>)[Symbol.for('automemo.running-api')] = api;
