import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slow-first-sequencer.ts';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * Test files with a process of their own: those that kill or replace esbuild's service and count its processes
 * (module state of their own), and the lint pass (ESLint and the TypeScript parser would stay in a shared worker's
 * memory for the files after it).
 */
const OWN_WORKER = ['test/sandbox/compile.test.ts', 'test/engine/search/toolchain.test.ts', 'test/cli/baselines.test.ts', 'test/lint/eslint.test.ts'];

export default defineConfig({
  resolve: {
    alias: [
      { find: /^automemo$/, replacement: here('./api/index.ts') },
      { find: /^automemo\/contract$/, replacement: here('./memo-programs/contract.ts') },
      { find: /^automemo\/lib$/, replacement: here('./memo-programs/lib/index.ts') },
      { find: /^automemo\/lib\/(.*)$/, replacement: here('./memo-programs/lib/$1.ts') },
    ],
  },
  test: {
    // isolated-vm needs --no-node-snapshot on Node 20; only the forks pool passes execArgv.
    pool: 'forks',
    // vitest's default on 2 cores is one worker, which leaves a core idle while CLI tests wait on their child
    // processes and browser tests on Chromium; a third keeps both cores busy through those waits.
    maxWorkers: availableParallelism() + 1,
    execArgv: ['--no-node-snapshot', '--expose-gc'],
    // Every run starts from an empty cache folder of its own, shared by all workers and CLI processes.
    globalSetup: ['test/support/suite-cache.ts'],
    // Longest files first, so no minutes-long file starts last (see the sequencer for the measured list).
    sequence: { sequencer: SlowFirstSequencer },
    // A worker keeps the modules it loaded from one file to the next: loading the engine (TypeScript's compiler,
    // playwright, zod schemas) took 2–3 s per file, 205 s of a clean run. Files that kill or replace esbuild's
    // service count its processes, so they run in workers of their own.
    projects: [
      // The running API, as automemo's entries publish it (api/running.ts), for the environment modules tests load;
      // not in the own-worker files, which must load esbuild themselves (after pointing it at their wrapper).
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], isolate: false, exclude: [...OWN_WORKER, '**/node_modules/**'], setupFiles: ['test/support/running-api.ts'] },
      },
      { extends: true, test: { name: 'own-worker', include: OWN_WORKER } },
    ],
    // Commands evaluate in their own process unless a test asks for workers: a worker process costs seconds to
    // start, and worker processes have tests of their own (test/engine/jobs).
    env: { AUTOMEMO_WORKERS: '0' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
