// Runs the longest test files first. On a clean clone vitest has no durations cached and orders files by size, so
// an end-to-end file that takes minutes could start last and hold the whole suite while the other workers idle.
// Seconds measured on this 2-core machine in a full run (`npm test`, each file's duration with its beforeAll,
// 2026-12-02, load ~3); files not listed count by their size as vitest would order them. Refresh the list from a clean run when files grow or shrink.
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SECONDS: Record<string, number> = {
  'test/cli/workers-queue.test.ts': 95,
  'test/engine/jobs/worker-pool.test.ts': 84,
  'test/cli/visual.test.ts': 66,
  'test/cli/web.test.ts': 65,
  'test/engine/jobs/job-keys.test.ts': 62,
  'test/lint/eslint.test.ts': 56,
  'test/engine/jobs/redis-queue.test.ts': 46,
  'test/envs/visual/scenes.test.ts': 44,
  'test/envs/visual/environment.test.ts': 44,
  'test/engine/search/search.test.ts': 44,
  'test/viewer/viewer.test.ts': 41,
  'test/cli/search-parallel.test.ts': 40,
  'test/examples/packed.test.ts': 36,
  'test/envs/web/environment.test.ts': 33,
  'test/envs/visual/charts.test.ts': 32,
  'test/sandbox/primitives/embed-pool.test.ts': 31,
  'test/cli/search.test.ts': 31,
  'test/cli/outside-benchmark.test.ts': 31,
  'test/cli/demo.test.ts': 31,
  'test/memo-programs/forms.test.ts': 27,
  'test/engine/jobs/shards.test.ts': 26,
  'test/api/joint.test.ts': 26,
  'test/sandbox/typecheck-limits.test.ts': 25,
  'test/export/export.test.ts': 25,
  'test/envs/web/sites/code.test.ts': 24,
  'test/envs/web/sites/travel.test.ts': 23,
  'test/api/study.test.ts': 23,
  'test/api/search-start.test.ts': 23,
  'test/envs/web/sites/shop.test.ts': 20,
  'test/sandbox/primitives/embed-backend.test.ts': 19,
  'test/envs/web/sites/recipes.test.ts': 18,
  'test/memo-programs/programs.test.ts': 17,
  'test/envs/validation-size.test.ts': 17,
  'test/sandbox/hostile.test.ts': 16,
  'test/envs/web/sites/helpdesk.test.ts': 16,
  'test/api/search-out.test.ts': 16,
  'test/engine/environment/user-code-limits.test.ts': 15,
  'test/engine/search/resume-every-step.test.ts': 13,
  'test/engine/search/parallel.test.ts': 13,
  'test/cli/control-characters.test.ts': 13,
  'test/cli/check.test.ts': 13,
  'test/viewer/analyst.test.ts': 12,
  'test/cli/eval.test.ts': 12,
  'test/api/evaluate-out.test.ts': 12,
  'test/envs/visual/mazes.test.ts': 11,
  'test/envs/data/equivalence.test.ts': 11,
  'test/api/search-clue.test.ts': 10,
  'test/envs/web/harness.test.ts': 9,
  'test/envs/visual/lookup.test.ts': 9,
  'test/engine/jobs/refusals.test.ts': 9,
  'test/cli/second-automemo.test.ts': 9,
  'test/viewer/viewer-browser.test.ts': 8,
  'test/sandbox/primitives/declare-contract.test.ts': 8,
  'test/engine/search/toolchain.test.ts': 8,
  'test/engine/search/selection-holdout.test.ts': 8,
  'test/api/commonjs-project.test.ts': 8,
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
