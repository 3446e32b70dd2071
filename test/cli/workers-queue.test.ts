// Searches on workers behind a real Redis (BullMQ), as a user runs them across machines: two `automemo worker`
// processes, one killed with SIGKILL mid-job; a search killed with a job in flight and resumed. Every evaluation is
// counted once and scores exactly as a search in one process with the same seed.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../foundation/paths.ts';
import { readJournal } from '../../run-store/journal.ts';
import { replay } from '../../engine/search/replay.ts';
import { automemoInProcess, bin, cliEnv } from '../support/cli.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';

const work = mkdtempSync(join(tmpdir(), 'workers-queue-'));
const envModule = join(repoRoot, 'examples', 'vault-env', 'env.ts');
// Computes for a few hundred milliseconds before its first update in each world: a kill on its job's start lands mid-job.
const slow = join(repoRoot, 'test', 'engine', 'jobs', 'fixtures', 'slow-notes.ts');
// No test-split phase: it runs the same jobs on the other split, and what is tested is the queue under kills.
const searchArgs = (out: string) => [
  'search',
  '--env',
  envModule,
  '--meta',
  'offline',
  '--seeds',
  slow,
  '--budget',
  '2',
  '--seed',
  '3',
  '--no-test',
  '--out',
  out,
];
// CLI processes (tsx-compiled) and a search each: ~40 s alone on a loaded 2-core machine, past the suite's
// default 60 s when other files run beside it.
const PROCESS_TEST_MS = 180_000;
let redis: TestRedis;
/** The two `automemo worker` processes both tests' searches are served by (the first test kills one). */
let workers: Proc[];
let referenceRun: Promise<Map<string, number | null>> | undefined;
/**
 * The same search in one process, run in this one (which process runs it is not what is tested): started once, when
 * a test first needs it, after the first test's kill (it waits on the killed worker's lock meanwhile), so no load in
 * this process delays a kill that must land mid-job.
 */
function reference(): Promise<Map<string, number | null>> {
  referenceRun ??= automemoInProcess(...searchArgs(join(work, 'one-process')), '--workers', '0').then((one) => {
    expect(one.code, one.err).toBe(0);
    return evaluations(join(work, 'one-process'));
  });
  // A failure before a test awaits it is still reported there, not as an unhandled rejection.
  referenceRun.catch(() => undefined);
  return referenceRun;
}

interface Proc {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
  /** Resolves with the first line from the `from`th on (already printed or to come) that matches. */
  line(match: (l: string) => boolean, from?: number): Promise<string>;
}

/** Every process a test started: stopped after the file, also when an assertion failed before a test stopped its own. */
const started: ChildProcess[] = [];

function start(args: string[]): Proc {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: repoRoot,
    env: cliEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  const lines: string[] = [];
  const waiters: { match: (l: string) => boolean; resolve: (l: string) => void }[] = [];
  let buf = '';
  child.stdout?.on('data', (d) => {
    buf += d;
    const parts = buf.split('\n');
    buf = parts.pop() ?? '';
    for (const l of parts) {
      lines.push(l);
      for (const w of waiters.splice(0)) {
        if (w.match(l)) w.resolve(l);
        else waiters.push(w);
      }
    }
  });
  child.stderr?.resume();
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    child,
    lines,
    exited,
    line: (match, from = 0) =>
      new Promise((resolve) => {
        const seen = lines.slice(from).find(match);
        if (seen !== undefined) resolve(seen);
        else waiters.push({ match, resolve });
      }),
  };
}

// Short enough that a killed worker's job comes back within seconds, long enough that a worker starved of CPU on a
// loaded machine still renews its lock (a second stall would fail the job as its program's).
// Started for the example environments' folder: a worker opens no module elsewhere.
const worker = () =>
  start(['worker', '--queue', redis.url, '--lock-ms', '8000', '--env-root', join(repoRoot, 'examples')]);
const ready = (w: Proc) => w.line((l) => l.includes('serving redis://'));
async function stopAll(...ps: Proc[]) {
  for (const p of ps) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  await Promise.all(ps.map((p) => p.exited));
}

/** Each evaluation the run counts (its replayed journal) by node, split and index; one counted twice fails. */
function evaluations(out: string): Map<string, number | null> {
  const m = new Map<string, number | null>();
  for (const e of replay(readJournal(join(out, 'journal.jsonl')).events).evaluations) {
    const key = `${e.node}/${e.split}/${e.index}`;
    expect(m.has(key), `${key} counted twice`).toBe(false);
    m.set(key, e.score);
  }
  return m;
}

beforeAll(async () => {
  redis = await startRedis();
  workers = [worker(), worker()];
  await Promise.all(workers.map(ready));
}, PROCESS_TEST_MS);
afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await redis?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('search --queue with automemo worker processes', () => {
  it(
    'finishes when a worker is killed mid-job: every evaluation counted once, scores as in one process',
    async () => {
      const [a, b] = workers as [Proc, Proc];
      const out = join(work, 'queue');
      const search = start([...searchArgs(out), '--queue', redis.url]);
      // Whichever worker starts the seed's first evaluation dies under it; the other takes the job back.
      const first = await Promise.race(
        [a, b].map((w) => w.line((l) => / start \S+\/seed-slow-notes\/train\/0\//.test(l)).then(() => w)),
      );
      first.child.kill('SIGKILL');
      const expected = reference();
      const other = first === a ? b : a;
      expect(await search.exited).toBe(0);
      expect(search.lines.join('\n')).toMatch(/evaluations workers behind redis:\/\/127\.0\.0\.1:\d+/);
      expect(other.lines.some((l) => / done \S+\/seed-slow-notes\/train\/0\//.test(l))).toBe(true);
      expect(evaluations(out)).toEqual(await expected);
      await first.exited;
    },
    PROCESS_TEST_MS,
  );

  it(
    'a search killed with a job in flight re-attaches to it on --resume: the job is not run again',
    async () => {
      // The workers still serving (the first test killed one); only what they print from here on is this test's.
      const serving = workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
      expect(serving.length).toBeGreaterThan(0);
      const from = serving.map((w) => w.lines.length);
      const out = join(work, 'resumed');
      const search = start([...searchArgs(out), '--queue', redis.url]);
      const [startedLine, a] = await Promise.race(
        serving.map((w, i) =>
          w.line((l) => / start \S+\/seed-slow-notes\/train\/0\//.test(l), from[i]).then((l) => [l, w] as const),
        ),
      );
      const key = startedLine.split(' ')[2] as string;
      search.child.kill('SIGKILL');
      await search.exited;
      // The worker finishes the job while no search waits for it.
      await a.line((l) => l.includes(` done ${key}`));
      // Resumed in this process: the search that is killed is a process of its own, the one that resumes need not be.
      const resumed = await automemoInProcess('search', '--resume', '--out', out, '--queue', redis.url);
      expect(resumed.code, resumed.err).toBe(0);
      expect(serving.flatMap((w) => w.lines.filter((l) => l.includes(` start ${key}`)))).toHaveLength(1);
      expect(evaluations(out)).toEqual(await reference());
      await stopAll(...serving);
    },
    PROCESS_TEST_MS,
  );
});
