// esbuild's long-lived service, dead for real: find this process's service child and kill it (what esbuild does to
// itself when its host stops answering pings), or put a wrapper in front of the real binary that refuses to start
// while a flag file exists (a compiler that stays dead through restarts).
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../foundation/paths.ts';

/** The real esbuild binary the package installed. */
export const ESBUILD_BINARY = join(repoRoot, 'node_modules', 'esbuild', 'bin', 'esbuild');

function parentOf(pid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) start after its closing parenthesis: state, then ppid.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** The esbuild service processes this process started (normally one). */
export function esbuildServicePids(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d) && parentOf(d) === process.pid)
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('--service=');
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Kills our esbuild service (SIGKILL, by pid) and waits until it is gone; returns how many were killed. */
export async function killEsbuildService(): Promise<number> {
  const pids = esbuildServicePids();
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  // Gone once Node has reaped it and read the end of its output; each wait is one turn of the event loop.
  for (let i = 0; i < 500 && esbuildServicePids().some((p) => pids.includes(p)); i++) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 50));
  return pids.length;
}

export interface EsbuildWrapper {
  /** The wrapper script, for ESBUILD_BINARY_PATH. */
  path: string;
  /** While down, the service exits at once instead of starting. */
  down(): void;
  up(): void;
  /** How many times a service was started through the wrapper. */
  starts(): number;
}

/** A wrapper around the real binary in `dir` (read by esbuild when it loads: set ESBUILD_BINARY_PATH before). */
export function esbuildWrapper(dir: string): EsbuildWrapper {
  const flag = join(dir, 'esbuild-down');
  const log = join(dir, 'esbuild-starts');
  const path = join(dir, 'esbuild');
  writeFileSync(path, `#!/bin/sh\necho start >> '${log}'\nif [ -e '${flag}' ]; then exit 3; fi\nexec '${ESBUILD_BINARY}' "$@"\n`);
  chmodSync(path, 0o755);
  return {
    path,
    down: () => writeFileSync(flag, ''),
    up: () => rmSync(flag, { force: true }),
    starts: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0),
  };
}

/**
 * A scratch folder whose `esbuild` file esbuild will run (ESBUILD_BINARY_PATH is read when esbuild loads): call it
 * from vi.hoisted, before any import reaches esbuild, then build the wrapper there with esbuildWrapper().
 */
export function esbuildWrapperDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'esbuild-wrapper-'));
  process.env.ESBUILD_BINARY_PATH = join(dir, 'esbuild');
  return dir;
}
