// The real `automemo` binary in a child process, as a user runs it (with its persistent embedding cache).
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../foundation/paths.ts';

export const bin = join(repoRoot, 'bin', 'automemo.js');
export const cliEnv = { ...process.env, NO_COLOR: '1', NODE_OPTIONS: '', AUTOMEMO_NO_DISK_CACHE: '' };

export function automemo(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, encoding: 'utf8', env: cliEnv, timeout: 600_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/**
 * The CLI's dispatcher in this process, as `automemo <args>` answers: for usage errors and refusals, which are
 * decided before any work, without paying a process start (seconds on a loaded machine) per case.
 */
export async function automemoInProcess(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const { main } = await import('../../cli/main.ts');
  const out: string[] = [];
  const err: string[] = [];
  const writes = { out: process.stdout.write, err: process.stderr.write };
  const capture = (into: string[]) => ((chunk: unknown) => (into.push(String(chunk)), true)) as typeof process.stdout.write;
  process.stdout.write = capture(out);
  process.stderr.write = capture(err);
  try {
    const code = await main(args);
    return { code, out: out.join(''), err: err.join('') };
  } finally {
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
  }
}

/**
 * automemoInProcess with these environment variables set for the command (a model server's address, say), and the
 * environment put back as it was afterwards, whatever the command did.
 */
export async function automemoInProcessWithEnv(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; out: string; err: string }> {
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await automemoInProcess(...args);
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** The real binary without blocking this process (a model server the test runs here must answer it). */
export function automemoAsync(args: string[], env: NodeJS.ProcessEnv = cliEnv): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out, err }));
  });
}

/** stderr without the progress lines a run prints every 30 s when stderr is not a terminal (cli/progress.ts). */
export const withoutProgress = (err: string) =>
  err
    .split('\n')
    .filter((l) => l && !l.startsWith('  … '))
    .join('\n');
