// What a worker refuses, and says why: another automemo, a program changed on the way, an environment that differs
// here; what the host refuses from a worker: evidence files named to leave the run folder; and Redis addresses
// that are not ones (a password is never printed).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openNamed } from '../../../api/environments.ts';
import { withHost } from '../../../api/host.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { workerContext } from '../../../api/workers.ts';
import { environmentHash } from '../../../engine/jobs/env-hash.ts';
import { evalJob } from '../../../engine/jobs/evaluate-job.ts';
import { unpackEvidence } from '../../../engine/jobs/evidence-files.ts';
import { type Job, parseJobOutput } from '../../../engine/jobs/job.ts';
import { parseRedisUrl } from '../../../engine/jobs/redis-url.ts';
import { JobRefused, runEvalJob } from '../../../engine/jobs/run-job.ts';
import { compileProgram } from '../../../sandbox/compile.ts';
import { repoRoot } from '../../../foundation/paths.ts';

const offline = resolveModels({}, {});

const work = mkdtempSync(join(tmpdir(), 'refusals-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const envModule = join(repoRoot, 'examples', 'vault-env', 'env.ts');

describe('a worker refuses a job it must not run', () => {
  it('names the versions, a changed bundle, and an environment that differs here', async () => {
    await withHost(offline, async (services) => {
      const { env, source } = await openNamed(envModule, { models: offline, images: services.images, seed: 0, onNote: () => undefined });
      const c = await compileProgram({ entryPath: join(repoRoot, 'memo-programs', 'baselines', 'bm25.ts') });
      if (!c.ok) throw new Error('bm25 does not compile');
      const ref = { source, openSeed: 0, hash: environmentHash(env, source) };
      const ctx = workerContext(offline, services, () => undefined);
      const job = evalJob({ key: 'k', program: c.program, env: ref, split: 'test', seed: 1 });

      const older = runEvalJob({ ...job, version: '0.0.1+aaaaaaaaaaaa' }, ctx);
      await expect(older).rejects.toThrow(JobRefused);
      await expect(older).rejects.toThrow(/holds automemo \S+, the search 0\.0\.1\+aaaaaaaaaaaa: install the same automemo/);

      await expect(runEvalJob({ ...job, program: { ...job.program, code: `${job.program.code}\n;globalThis.x = 1;` } }, ctx)).rejects.toThrow(/does not match its hash/);

      // The search opened the environment with another seed (another split): the content hash tells.
      const other = runEvalJob({ ...job, env: { ...ref, hash: '0123456789abcdef' } }, ctx);
      await expect(other).rejects.toThrow(/has a different environment .*content hash [0-9a-f]{16}, the search's 0123456789abcdef/);

      // The same job with the right reference runs.
      const out = await runEvalJob(job, ctx);
      expect(out.result?.score).toBeGreaterThan(0.5);
      expect(out.evidence?.some((f) => f.path === 'tasks.jsonl')).toBe(true);
      await env.close?.();
    });
  });
});

describe('what comes back from a worker is checked', () => {
  it('refuses evidence named to leave the run folder, and a malformed result', () => {
    const dir = join(work, 'evidence');
    expect(() => unpackEvidence(dir, [{ path: '../escaped.txt', base64: Buffer.from('x').toString('base64') }])).toThrow(/not a safe relative path/);
    expect(existsSync(join(work, 'escaped.txt'))).toBe(false);
    expect(() => parseJobOutput({ key: 'k', worker: 'w', result: { score: 7 } }, 'a worker', { key: 'k' } as Job)).toThrow(/a worker returned a malformed job result for k \(result\./);
  });
});

describe('Redis addresses', () => {
  it('accepts redis:// and rediss:// with a password, never prints the password, and names what is wrong', () => {
    const t = parseRedisUrl('rediss://:s3cret@redis.lab:6380/2');
    expect(t).toMatchObject({ host: 'redis.lab', port: 6380, db: 2, password: 's3cret', tls: true });
    expect(t.shown).toBe('rediss://redis.lab:6380/2');
    expect(() => parseRedisUrl('http://x:1')).toThrow(/redis:\/\/ or rediss:\/\//);
    expect(() => parseRedisUrl('redis://h:1/99')).toThrow(/database "99"/);
    expect(() => parseRedisUrl('not a url')).toThrow(/is not a URL/);
  });
});
