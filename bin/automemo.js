#!/usr/bin/env node
// automemo's command-line entry. isolated-vm needs Node's --no-node-snapshot flag on Node 20, so without it the
// process runs itself once more with the flag, forwarding signals; the inner process exits if this one dies, even
// by SIGKILL, so a killed command never leaves a search writing to its run folder. TypeScript loads through tsx.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const FLAG = '--no-node-snapshot';
if (!process.execArgv.includes(FLAG) && !(process.env.NODE_OPTIONS ?? '').includes(FLAG)) {
  const child = spawn(process.execPath, [FLAG, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, AUTOMEMO_PARENT_PID: String(process.pid) },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
} else {
  if (process.env.AUTOMEMO_PARENT_PID) {
    const parent = Number(process.env.AUTOMEMO_PARENT_PID);
    // Orphaned (the launcher was killed): stop at once, as the launcher did.
    setInterval(() => {
      if (process.ppid !== parent) process.exit(137);
    }, 200).unref();
  }
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../cli/main.ts');
  process.exitCode = await main(process.argv.slice(2));
}
