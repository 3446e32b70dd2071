// ../shared beside the repository holds the project's notes and recorded data; a clone does not have it. A test that
// needs it skips, saying why, instead of failing. AUTOMEMO_TEST_SHARED_DIR points elsewhere (a folder that does not
// exist shows what a clone without ../shared does: AUTOMEMO_TEST_SHARED_DIR=/nonexistent npx vitest run).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../foundation/paths.ts';

export const sharedDir = process.env.AUTOMEMO_TEST_SHARED_DIR ?? join(repoRoot, '..', 'shared');

/** Why a test that needs `rel` under ../shared cannot run (printed once), or undefined when it is there. */
export function sharedMissing(rel: string): string | undefined {
  const path = join(sharedDir, rel);
  if (existsSync(path)) return undefined;
  const why = `skipped: needs ${path} (../shared beside the repository, which a clone does not have)`;
  process.stderr.write(`${why}\n`);
  return why;
}
