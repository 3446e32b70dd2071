// Puts this process's automemo API where api/running-automemo.js reads it: an environment module that imports
// `automemo` gets this instance (module-hooks.mjs), so its InfraError is the engine's. Beside it, which copy of
// automemo is running (its folder and version): a second copy's entry (index.js) reads it and stops before it loads
// anything, since two copies of the engine's native sandbox (isolated-vm) abort the process.
// The entries import it (index.js, cli/main.ts, and the tests' setup), never a file of api/: the API imports
// environments.ts, so environments.ts importing this file would be an import circle.
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../foundation/paths.ts';
import * as api from './index.ts';

const slots = globalThis as Record<symbol, unknown>;
slots[Symbol.for('automemo.running-api')] = api;
slots[Symbol.for('automemo.running-copy')] ??= {
  root: realpathSync(repoRoot),
  version: (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version,
};
