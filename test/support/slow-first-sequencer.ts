// Runs the longest test files first. On a clean clone vitest has no durations cached and orders files by size, so
// an end-to-end file that takes minutes could start last and hold the whole suite while the other workers idle.
// Seconds measured on this 2-core machine in a full run (`npm test`, each file's duration, 2026-11-26); files not listed
// count by their size as vitest would order them. Refresh the list from a clean run when files grow or shrink.
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SECONDS: Record<string, number> = {
  'test/examples/packed.test.ts': 96,
  'test/cli/workers-queue.test.ts': 95,
  'test/cli/web.test.ts': 83,
  'test/engine/jobs/worker-pool.test.ts': 72,
  'test/export/export.test.ts': 67,
  'test/cli/visual.test.ts': 53,
  'test/viewer/viewer.test.ts': 49,
  'test/envs/visual/model-agent.test.ts': 38,
  'test/engine/search/search.test.ts': 36,
  'test/cli/search.test.ts': 34,
  'test/envs/web/environment.test.ts': 33,
  'test/memo-programs/programs.test.ts': 32,
  'test/envs/visual/charts.test.ts': 31,
  'test/engine/jobs/redis-queue.test.ts': 31,
  'test/envs/web/sites/code.test.ts': 29,
  'test/cli/search-parallel.test.ts': 28,
  'test/envs/web/sites/travel.test.ts': 26,
  'test/envs/visual/scenes.test.ts': 25,
  'test/engine/jobs/shards.test.ts': 25,
  'test/envs/visual/environment.test.ts': 24,
  'test/engine/meta/model/recorded-session.test.ts': 24,
  'test/sandbox/hostile.test.ts': 24,
  'test/envs/web/sites/shop.test.ts': 22,
  'test/cli/eval.test.ts': 21,
  'test/envs/validation-size.test.ts': 21,
  'test/api/search-start.test.ts': 20,
  'test/cli/check.test.ts': 20,
  'test/envs/web/sites/helpdesk.test.ts': 18,
  'test/cli/demo.test.ts': 15,
  'test/cli/outside-benchmark.test.ts': 15,
  'test/envs/web/sites/recipes.test.ts': 13,
  'test/sandbox/primitives/declare-contract.test.ts': 12,
  'test/api/search-clue.test.ts': 12,
  'test/envs/visual/mazes.test.ts': 11,
  'test/engine/search/parallel.test.ts': 11,
  'test/engine/evaluate/embed-infra.test.ts': 11,
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
