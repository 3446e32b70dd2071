// A real Redis server for a test: Debian's redis-server on a free 127.0.0.1 port, with a temp folder of its own,
// no persistence, stopped (and its folder removed) by stop().
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startRedis(): Promise<TestRedis> {
  // A port another process takes between our probe and redis' bind fails the start: try another.
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'redis-test-'));
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const ready = await new Promise<boolean>((resolve) => {
      let out = '';
      child.stdout?.on('data', (d) => {
        out += d;
        if (out.includes('Ready to accept connections')) resolve(true);
      });
      child.once('exit', () => resolve(false));
      child.once('error', () => resolve(false));
    });
    if (ready) return { url: `redis://127.0.0.1:${port}`, port, stop: () => stop(child, dir) };
    rmSync(dir, { recursive: true, force: true });
    if (attempt >= 3) throw new Error('redis-server did not start (is it installed? npm test installs it through apt: node scripts/ensure-install.mjs --for queue)');
  }
}

async function stop(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
}
