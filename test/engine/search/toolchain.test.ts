// The search's seeding when the compiler dies for good half-way: the programs already evaluated stay, the failure
// is named as infrastructure (not a program that "does not compile"), the summary still comes back, and a resume
// once the compiler is back finishes the run.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

// esbuild reads ESBUILD_BINARY_PATH when it loads: the wrapper goes in front of the real binary before any import.
const scratch = await vi.hoisted(async () => (await import('../../support/esbuild-service.ts')).esbuildWrapperDir());

import { CostLedger } from '../../../foundation/llm/ledger.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { OfflineMetaAgent } from '../../../engine/meta/offline/agent.ts';
import { runSearch } from '../../../engine/search/search.ts';
import { closeHostServices } from '../../../sandbox/primitives/index.ts';
import { readJournal } from '../../../run-store/journal.ts';
import { esbuildServicePids, esbuildWrapper } from '../../support/esbuild-service.ts';
import { offlineServices } from '../../support/services.ts';
import { ToyEnvironment } from '../../support/toy-env.ts';
import { createToyRun } from '../../support/toy-run.ts';

const wrapper = esbuildWrapper(scratch);
const dirs = [scratch];
afterAll(async () => {
  await closeHostServices();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('search seeding when the compiler dies', () => {
  it('names the dead compiler, keeps what finished, and a resume completes the run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolchain-'));
    dirs.push(dir);
    const { folder, opts: options } = createToyRun(dir, { budget: 1 });
    const env = new ToyEnvironment({ maxChars: 2000, maxImages: 0 });
    const deps = { env, services: offlineServices(), meta: new OfflineMetaAgent(), folder, options, models: resolveModels({}, {}), ledger: new CostLedger() };

    // Once the root has its score, esbuild dies and will not start again.
    const summary = await runSearch({
      ...deps,
      onEvent: (e) => {
        if (e.type === 'evaluation' && e.node === 'root') {
          wrapper.down();
          for (const pid of esbuildServicePids()) process.kill(pid, 'SIGKILL');
        }
      },
    });
    expect(summary.failure).toMatch(/^step 0 could not finish: the esbuild service failed 3 times, restarted each time/);
    expect(summary.root.validation).toBe(0);
    expect(summary.seeds).toEqual([]);
    const events = readJournal(folder.journalPath).events;
    expect(events.find((e) => e.type === 'stopped')).toMatchObject({ step: 0, kind: 'infrastructure' });
    expect(events.some((e) => e.type === 'step-done')).toBe(false);
    expect(events.some((e) => e.type === 'quick-exam' || e.type === 'generation-failed')).toBe(false);

    wrapper.up();
    const resumed = await runSearch(deps);
    expect(resumed.failure).toBeUndefined();
    expect(resumed.seeds.map((s) => s.validation)).toEqual([1]);
    expect(resumed.steps).toBe(1);
    // The root's first evidence (of a step that never finished) was moved aside, not appended to.
    const lines = (f: string) => readFileSync(join(dir, 'evidence', 'root', f, 'tasks.jsonl'), 'utf8').trim().split('\n');
    expect(lines('train-0-interrupted-1')).toHaveLength(2);
    expect(lines('train-0')).toHaveLength(2);
  });
});
