// Opening an environment has one door (api/environments.ts openEnv): every call that opens one — by name, or the one
// a run recorded (resume, export, a worker's job) — goes through it, and the engine's environment folder has no
// import circle (compose.ts opens its parts with open.ts, which once imported the registry that imports compose.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../foundation/paths.ts';
// @ts-expect-error a plain .mjs script of the lint step, without types
import { importCycles } from '../../scripts/import-cycles.mjs';

const sources = (folder: string) =>
  (readdirSync(join(repoRoot, folder), { recursive: true }) as string[])
    .filter((n) => n.endsWith('.ts'))
    .map((n) => ({ path: join(folder, n), text: readFileSync(join(repoRoot, folder, n), 'utf8') }));

describe('opening an environment', () => {
  it('goes through openEnv alone: no other file above the engine resolves, reopens or opens one itself', () => {
    const offenders = [...sources('api'), ...sources('cli')]
      .filter(({ path }) => path !== join('api', 'environments.ts'))
      .filter(({ text }) =>
        /\bopenEnvironment\(|environments\.(resolve|reopen)\(|\b(reopenEnv|resolveEnv)\b/.test(text),
      )
      .map(({ path }) => path);
    expect(offenders).toEqual([]);
  });

  it('has no import circle among the environment files', () => {
    expect(importCycles(repoRoot, ['engine/environment', 'api'])).toEqual([]);
  });
});
