// `--seeds auto` screens every standard design at once. One design's evaluation failing (infrastructure) stops the
// search; its siblings must stop too, and the screen must end only once they have: the search tears its services
// down after the failed step, and evaluations still running then failed on the closed embedding pool, as a stream of
// unhandled rejections.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { CostLedger } from '../../../foundation/llm/ledger.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { OfflineMetaAgent } from '../../../engine/meta/offline/agent.ts';
import { InProcessExecutor, localEnvRef } from '../../../engine/jobs/in-process.ts';
import type { JobExecutor, RunHints } from '../../../engine/jobs/executor.ts';
import type { Job, JobOutput } from '../../../engine/jobs/job.ts';
import { runSearch } from '../../../engine/search/search.ts';
import { STANDARD_DESIGNS } from '../../../memo-programs/registry.ts';
import { ToolchainError } from '../../../sandbox/toolchain-error.ts';
import { offlineServices } from '../../support/services.ts';
import { ToyEnvironment } from '../../support/toy-env.ts';
import { createToyRun } from '../../support/toy-run.ts';

const dir = mkdtempSync(join(tmpdir(), 'screen-failure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Jobs in this process, but long ones: each waits (up to a minute, or until its signal stops it) before it runs, as
 * an evaluation on a slow benchmark would; the bm25 design's fails once every design's job has started.
 */
class SlowScreen implements JobExecutor {
  readonly slots = 1;
  readonly where = 'in this process, slowly';
  readonly started: string[] = [];
  readonly ended: { key: string; at: number; stopped: boolean }[] = [];
  constructor(private readonly inner: JobExecutor) {}

  async run(job: Job, hints: RunHints): Promise<JobOutput> {
    // The root and later evaluations run as they are; the screen's are slow.
    if (!job.key.includes('/seed-')) return this.inner.run(job, hints);
    this.started.push(job.key);
    try {
      if (job.key.includes('/seed-bm25/')) {
        for (let i = 0; i < 1000 && this.started.length < STANDARD_DESIGNS.length; i++)
          await new Promise((r) => setTimeout(r, 10));
        throw new ToolchainError('workers', 'the worker serving bm25 went away');
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 60_000);
        hints.signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
      return await this.inner.run(job, hints);
    } finally {
      this.ended.push({ key: job.key, at: Date.now(), stopped: hints.signal?.aborted === true });
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

it('a failed screen stops its sibling evaluations and ends only once they have, with nothing unhandled', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (r: unknown) => unhandled.push(r);
  process.on('unhandledRejection', onUnhandled);
  try {
    const { folder, opts } = createToyRun(join(dir, 'run'), {
      budget: 2,
      seeds: [],
      screen: { designs: STANDARD_DESIGNS, keep: 3 },
    });
    const env = new ToyEnvironment({ maxChars: 2000, maxImages: 0 });
    const services = offlineServices();
    const executor = new SlowScreen(new InProcessExecutor(env, services));
    const started = Date.now();
    const s = await runSearch({
      env,
      services,
      meta: new OfflineMetaAgent(),
      folder,
      options: opts,
      models: resolveModels({}, {}),
      ledger: new CostLedger(),
      jobs: { executor, env: localEnvRef(env) },
    });
    const returned = Date.now();
    expect(s.stopped).toMatch(/the worker serving bm25 went away/);
    expect(returned - started).toBeLessThan(30_000);
    // Every design's evaluation ended before the search returned; the others were stopped, not left running.
    expect(executor.started).toHaveLength(STANDARD_DESIGNS.length);
    const ended = executor.ended;
    expect(ended).toHaveLength(STANDARD_DESIGNS.length);
    for (const e of ended) expect(e.at).toBeLessThanOrEqual(returned);
    expect(ended.filter((e) => !e.key.includes('/seed-bm25/')).every((e) => e.stopped)).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
