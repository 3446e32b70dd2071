// The real `automemo` binary in a child process, as a user runs it (with its persistent embedding cache).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../sandbox/paths.ts';

export const bin = join(repoRoot, 'bin', 'automemo.js');
export const cliEnv = { ...process.env, NO_COLOR: '1', NODE_OPTIONS: '', AUTOMEMO_NO_DISK_CACHE: '' };

export function automemo(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, encoding: 'utf8', env: cliEnv, timeout: 600_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
