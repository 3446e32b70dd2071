// Runs the longest test files first. On a clean clone vitest has no durations cached and orders files by size, so
// an end-to-end file that takes minutes could start last and hold the whole suite while the other workers idle.
// Seconds measured on this 2-core machine in a clean-clone run (`npm test`, each file's duration); files not listed
// count by their size as vitest would order them. Refresh the list from a clean run when files grow or shrink.
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SECONDS: Record<string, number> = {
  'test/examples/packed.test.ts': 200,
  'test/export/export.test.ts': 145,
  'test/cli/search.test.ts': 136,
  'test/cli/visual.test.ts': 115,
  'test/cli/web.test.ts': 106,
  'test/envs/web/environment.test.ts': 90,
  'test/sandbox/hostile.test.ts': 85,
  'test/envs/web/sites/code.test.ts': 83,
  'test/envs/web/sites/shop.test.ts': 74,
  'test/engine/meta/model/recorded-session.test.ts': 70,
  'test/envs/web/sites/helpdesk.test.ts': 63,
  'test/envs/web/sites/travel.test.ts': 58,
  'test/viewer/viewer.test.ts': 54,
  'test/cli/eval.test.ts': 53,
  'test/cli/check.test.ts': 49,
  'test/envs/data/equivalence.test.ts': 47,
  'test/envs/web/sites/recipes.test.ts': 46,
  'test/cli/search-parallel.test.ts': 43,
  'test/envs/visual/environment.test.ts': 41,
  'test/cli/outside-benchmark.test.ts': 39,
  'test/memo-programs/programs.test.ts': 37,
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
