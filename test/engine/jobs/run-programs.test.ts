// Evaluating programs into a folder an earlier run wrote (the same --out twice): the earlier evidence is kept aside,
// and the new folder holds this run's lines only.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openNamed } from '../../../api/environments.ts';
import { withHost } from '../../../api/host.ts';
import { runEvaluations } from '../../../engine/jobs/run-programs.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { repoRoot } from '../../../foundation/paths.ts';

const work = mkdtempSync(join(tmpdir(), 'run-programs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('keeps an earlier run’s evidence aside instead of appending to it', async () => {
  const models = resolveModels({}, {});
  await withHost(models, async (services) => {
    const { env } = await openNamed(join(repoRoot, 'examples', 'vault-env', 'env.ts'), { models, images: services.images, seed: 0, onNote: () => undefined });
    try {
      const programs = [{ name: 'bm25', path: join(repoRoot, 'memo-programs', 'baselines', 'bm25.ts') }];
      const first = await runEvaluations(programs, env, 'test', services, work, { tasks: 5 });
      const second = await runEvaluations(programs, env, 'test', services, work, { tasks: 5 });
      const lines = (dir: string) => readFileSync(join(dir, 'tasks.jsonl'), 'utf8').trim().split('\n').length;
      expect(second.rows[0]?.result.score).toBe(first.rows[0]?.result.score);
      expect(lines(join(work, 'bm25'))).toBe(5);
      expect(lines(join(work, 'bm25-previous-1'))).toBe(5);
      expect(existsSync(join(work, 'bm25-previous-2'))).toBe(false);
    } finally {
      await env.close?.();
    }
  });
});
