// Runs the longest test files first. On a clean clone vitest has no durations cached and orders files by size, so
// an end-to-end file that takes minutes could start last and hold the whole suite while the other workers idle.
// Seconds measured on this 2-core machine in a full run (`npm test`, each file's duration with its beforeAll,
// 2026-12-02 after the trims, load ~3–7); files not listed count by their size as vitest would order them. Refresh the list from a clean run when files grow or shrink.
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SECONDS: Record<string, number> = {
  'test/lint/eslint.test.ts': 73,
  'test/cli/web.test.ts': 60,
  'test/engine/jobs/worker-pool.test.ts': 57,
  'test/cli/workers-queue.test.ts': 52,
  'test/envs/visual/environment.test.ts': 31,
  'test/engine/search/search.test.ts': 30,
  'test/engine/jobs/job-keys.test.ts': 25,
  'test/examples/packed.test.ts': 23,
  'test/cli/visual.test.ts': 23,
  'test/memo-programs/forms.test.ts': 23,
  'test/cli/search.test.ts': 22,
  'test/cli/demo.test.ts': 21,
  'test/envs/web/environment.test.ts': 21,
  'test/cli/search-parallel.test.ts': 21,
  'test/envs/visual/charts.test.ts': 20,
  'test/sandbox/primitives/embed-pool.test.ts': 18,
  'test/envs/web/sites/code.test.ts': 16,
  'test/export/export.test.ts': 16,
  'test/sandbox/hostile.test.ts': 16,
  'test/sandbox/typecheck-limits.test.ts': 16,
  'test/envs/web/sites/travel.test.ts': 15,
  'test/envs/web/sites/shop.test.ts': 14,
  'test/envs/visual/scenes.test.ts': 13,
  'test/api/joint.test.ts': 13,
  'test/viewer/viewer.test.ts': 12,
  'test/envs/validation-size.test.ts': 12,
  'test/engine/jobs/shards.test.ts': 12,
  'test/engine/search/parallel.test.ts': 11,
  'test/memo-programs/programs.test.ts': 11,
  'test/engine/environment/user-code-limits.test.ts': 10,
  'test/cli/outside-benchmark.test.ts': 10,
  'test/api/study.test.ts': 9,
  'test/sandbox/primitives/embed-backend.test.ts': 9,
  'test/envs/web/sites/helpdesk.test.ts': 9,
  'test/cli/check.test.ts': 8,
  'test/viewer/analyst.test.ts': 8,
  'test/envs/web/sites/recipes.test.ts': 7,
  'test/engine/jobs/redis-queue.test.ts': 7,
  'test/cli/eval.test.ts': 7,
  'test/cli/second-automemo.test.ts': 7,
  'test/envs/visual/model-agent.test.ts': 7,
  'test/api/search-start.test.ts': 6,
  'test/viewer/viewer-browser.test.ts': 6,
  'test/api/seeds.test.ts': 6,
  'test/envs/visual/mazes.test.ts': 6,
  'test/api/search-out.test.ts': 5,
  'test/envs/data/equivalence.test.ts': 5,
  'test/api/outside-module.test.ts': 5,
  'test/foundation/llm/transport.test.ts': 5,
  'test/run-store/received-run.test.ts': 5,
  'test/envs/web/harness.test.ts': 5,
  'test/cli/user-mistakes.test.ts': 5,
  'test/cli/control-characters.test.ts': 5,
  'test/envs/visual/lookup.test.ts': 5,
  'test/engine/search/resume-every-step.test.ts': 4,
  'test/api/commonjs-project.test.ts': 4,
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
