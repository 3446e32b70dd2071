import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slow-first-sequencer.ts';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

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
    include: ['test/**/*.test.ts'],
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
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
