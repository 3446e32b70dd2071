// Runs the longest test files first. On a clean clone vitest has no durations cached and orders files by size, so
// an end-to-end file that takes minutes could start last and hold the whole suite while the other workers idle.
// Seconds measured on this 2-core machine in a full run (`npm test`, each file's duration with its beforeAll,
// 2026-11-26 late); files not listed count by their size as vitest would order them. Refresh the list from a clean run when files grow or shrink.
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SECONDS: Record<string, number> = {
  'test/cli/workers-queue.test.ts': 112,
  'test/examples/packed.test.ts': 112,
  // cli/web, jobs/worker-pool, cli/visual, visual/environment, cli/search, cli/check, cli/eval: scaled by the
  // before/after ratio measured when their tests were trimmed (2026-12-02, not a full run).
  'test/cli/web.test.ts': 66,
  'test/export/export.test.ts': 61,
  'test/engine/jobs/worker-pool.test.ts': 45,
  'test/cli/visual.test.ts': 41,
  // Measured alone (2026-12-02): its run and Chromium take most of it.
  'test/viewer/analyst.test.ts': 40,
  'test/engine/search/search.test.ts': 37,
  'test/cli/search-parallel.test.ts': 37,
  'test/envs/data/equivalence.test.ts': 35,
  'test/viewer/viewer.test.ts': 31,
  'test/lint/eslint.test.ts': 30,
  'test/envs/web/sites/travel.test.ts': 30,
  'test/cli/demo.test.ts': 29,
  'test/envs/visual/environment.test.ts': 25,
  'test/envs/web/sites/code.test.ts': 25,
  'test/envs/visual/scenes.test.ts': 25,
  'test/envs/web/environment.test.ts': 24,
  'test/envs/visual/charts.test.ts': 23,
  'test/engine/jobs/redis-queue.test.ts': 23,
  'test/engine/jobs/shards.test.ts': 21,
  'test/envs/web/sites/recipes.test.ts': 20,
  'test/envs/web/sites/shop.test.ts': 20,
  'test/engine/meta/model/recorded-session.test.ts': 20,
  'test/cli/outside-benchmark.test.ts': 20,
  'test/sandbox/primitives/embed-pool.test.ts': 20,
  'test/cli/search.test.ts': 19,
  'test/envs/visual/model-agent.test.ts': 17,
  'test/envs/web/sites/helpdesk.test.ts': 16,
  'test/sandbox/hostile.test.ts': 16,
  'test/envs/validation-size.test.ts': 16,
  // Measured alone under a load of ~18 (2026-12-02, 54 s), scaled by the ~3.5x that load costs.
  'test/api/study.test.ts': 15,
  'test/cli/check.test.ts': 15,
  'test/memo-programs/programs.test.ts': 15,
  'test/cli/eval.test.ts': 12,
  'test/engine/search/parallel.test.ts': 11,
  'test/sandbox/primitives/embed-backend.test.ts': 11,
};

/** A file's weight: its measured seconds, or its size in kB (a few seconds) as vitest's own fallback order. */
function weight(spec: TestSpecification): number {
  const file = relative(process.cwd(), spec.moduleId).split('\\').join('/');
  const known = SECONDS[file];
  if (known !== undefined) return known;
  try {
    return statSync(spec.moduleId).size / 1024;
  } catch {
    return 0;
  }
}

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => weight(b) - weight(a));
  }
}
