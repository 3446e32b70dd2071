#!/usr/bin/env node
// automemo's command-line entry. isolated-vm needs Node's --no-node-snapshot flag on Node 20, so without it
// the process re-executes itself once with the flag; then TypeScript sources load through tsx.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const FLAG = '--no-node-snapshot';
if (!process.execArgv.includes(FLAG) && !(process.env.NODE_OPTIONS ?? '').includes(FLAG)) {
  const res = spawnSync(process.execPath, [FLAG, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(res.status ?? (res.signal ? 128 : 1));
}

const { register } = await import('tsx/esm/api');
register();
const { main } = await import('../engine/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
