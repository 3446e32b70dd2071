// A program kept waiting by shared embedding workers (busy with another owner's work, or loading) is not charged:
// the call fails as infrastructure, the world is retried, and what stays unscored is left out of the score.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateProgram } from '../../../engine/evaluate/evaluate.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { compileProgram } from '../../../sandbox/compile.ts';
import { UseLiteEmbedder } from '../../../sandbox/primitives/embed.ts';
import { EmbedOwner } from '../../../sandbox/primitives/embed-owner.ts';
import { closeHostServices, createHostServices } from '../../../sandbox/primitives/index.ts';
import { repoRoot } from '../../../foundation/paths.ts';
import { ToyEnvironment } from '../../support/toy-env.ts';

// The worker is shared with other files: the embedding settings this file chose are put back as they were.
const givenEnv = { cache: process.env.AUTOMEMO_NO_DISK_CACHE, backend: process.env.AUTOMEMO_EMBED_BACKEND };
// These tests need the embedding workers to do real work: no disk cache may answer for them (the suite shares one).
process.env.AUTOMEMO_NO_DISK_CACHE = '1';
// They need jobs that hold a worker for seconds: TF.js's tokenizer takes seconds on a text of ~30k characters
// (the ONNX backend's takes milliseconds). What they test, the pool's scheduling, is the same for every backend.
process.env.AUTOMEMO_EMBED_BACKEND = 'tfjs';

afterAll(() => {
  closeHostServices();
  for (const [key, value] of [
    ['AUTOMEMO_NO_DISK_CACHE', givenEnv.cache],
    ['AUTOMEMO_EMBED_BACKEND', givenEnv.backend],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe('evaluation and shared embedding workers', () => {
  it("retries a world whose calls waited on others' embedding work, and scores none of it as the program's", async () => {
    const compiled = await compileProgram({ entryPath: join(repoRoot, 'memo-programs/baselines/dense.ts') });
    if (!compiled.ok) throw new Error('dense.ts did not compile');
    // Another owner holds both workers with jobs that take seconds (TF.js's tokenizer slows steeply past ~16k characters).
    const hog = new EmbedOwner();
    const lite = new UseLiteEmbedder();
    await lite.embed(['warm up', 'warm up too'], hog);
    const long = (tag: string) => `${tag} ${'word salad about many things '.repeat(1100)}`;
    const hogging = lite.embed([long('a'), long('b')], hog).catch(() => undefined);
    try {
      const retries: string[] = [];
      const r = await evaluateProgram(compiled.program, {
        env: new ToyEnvironment(),
        split: 'test',
        services: createHostServices(resolveModels({}, {})),
        limits: { callWallMs: 250 },
        infraRetries: 1,
        onProgress: (e) => e.kind === 'retry' && retries.push(e.reason),
      });
      expect(retries).toHaveLength(2);
      expect(retries[0]).toMatch(/shared machinery: update\(\) waited \d+ ms/);
      expect(r.worlds.map((w) => w.attempts)).toEqual([2, 2]);
      expect(r.stats.programFailed).toBe(0);
      expect(r.tasks.every((t) => t.reward === null && /shared embedding workers/.test(t.infraError ?? ''))).toBe(true);
      expect(r.score).toBeNull();
    } finally {
      hog.close();
      await hogging;
    }
  });
});
