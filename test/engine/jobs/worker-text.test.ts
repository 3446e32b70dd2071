// What a worker behind a queue says to whoever put a job there carries no text of the files under its roots: an
// error a module's own code threw (a JSON.parse message quotes a fragment of the file it read) goes back as its
// kind, its message kept in the worker's log. And a worker is refused at start when its roots would be no
// allow-list (--env-root /) or a --path-map target lies outside them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openNamed } from '../../../api/environments.ts';
import { withHost } from '../../../api/host.ts';
import { workerContext } from '../../../api/workers.ts';
import type { Environment } from '../../../engine/environment/contract.ts';
import type { EnvSource } from '../../../engine/environment/registry.ts';
import { environmentHash } from '../../../engine/jobs/env-hash.ts';
import { evalJob } from '../../../engine/jobs/evaluate-job.ts';
import type { EnvRef } from '../../../engine/jobs/job.ts';
import { serveQueue } from '../../../engine/jobs/queue-worker.ts';
import { RedisQueueExecutor } from '../../../engine/jobs/redis-queue.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { repoRoot } from '../../../foundation/paths.ts';
import { UsageError } from '../../../foundation/usage-error.ts';
import { compileProgram } from '../../../sandbox/compile.ts';
import { automemoInProcess } from '../../support/cli.ts';
import { startRedis, type TestRedis } from '../../support/redis-server.ts';

const offline = resolveModels({}, {});
const work = mkdtempSync(join(tmpdir(), 'worker-text-'));
const SECRET = 'TOPSECRET-db-password-12345';
let redis: TestRedis;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
  rmSync(work, { recursive: true, force: true });
});

it("an error thrown by a module's load() or by its environment during the job goes back as its kind, never its text", async () => {
  const root = join(work, 'bench');
  mkdirSync(root, { recursive: true });
  // The module reads its config, which is not JSON: JSON.parse quotes the start of it in its message.
  writeFileSync(join(root, 'config.json'), `${SECRET} = yes\n`);
  const module = join(root, 'env.mjs');
  writeFileSync(
    module,
    `import { readFileSync } from 'node:fs';\nexport default { name: 'configured', summary: 'x', load: () => JSON.parse(readFileSync(${JSON.stringify(join(root, 'config.json'))}, 'utf8')) };\n`,
  );
  await withHost(offline, async (services) => {
    const compiled = await compileProgram({ entryPath: join(repoRoot, 'memo-programs', 'baselines', 'bm25.ts') });
    if (!compiled.ok) throw new Error('bm25 does not compile');
    const { env, source } = await openNamed(join(repoRoot, 'examples', 'vault-env', 'env.ts'), {
      models: offline,
      images: services.images,
      seed: 0,
      onNote: () => undefined,
    });
    const vault: EnvRef = { source: source as EnvSource, openSeed: 0, hash: environmentHash(env, source) };
    const logged: string[] = [];
    const context = workerContext(offline, services, (m) => logged.push(m), {
      roots: [root, join(repoRoot, 'examples')],
    });
    // The second: an environment whose own code throws, quoting its file, once the job runs.
    const throwing: Environment = new Proxy(env, {
      get: (t, p) =>
        p === 'worlds'
          ? () => Promise.reject(new SyntaxError(`Unexpected token in "${SECRET}"`))
          : Reflect.get(t, p, t),
    });
    const worker = await serveQueue({
      url: redis.url,
      context: {
        ...context,
        environment: (ref) =>
          ref.source.spec.endsWith('env.mjs') ? context.environment(ref) : Promise.resolve(throwing),
      },
      onJob: (e) => e.message && logged.push(e.message),
    });
    const executor = await RedisQueueExecutor.connect(redis.url);
    try {
      const ref: EnvRef = {
        source: { spec: module, kind: 'module', name: 'configured', path: module },
        openSeed: 0,
        hash: '0123456789abcdef',
      };
      const load = await executor
        .run(evalJob({ key: 'text/load', program: compiled.program, env: ref, split: 'test', seed: 1 }), {
          evidenceDir: join(work, 'load'),
        })
        .then(
          () => undefined,
          (e: Error) => e.message,
        );
      expect(load).toMatch(
        /cannot open the environment .*env\.mjs: SyntaxError \(its message may quote the worker's files, so it stays in the worker's log\)/,
      );
      const run = await executor
        .run(evalJob({ key: 'text/run', program: compiled.program, env: vault, split: 'test', seed: 1 }), {
          evidenceDir: join(work, 'run'),
        })
        .then(
          () => undefined,
          (e: Error) => e.message,
        );
      expect(run).toMatch(/failed the job: SyntaxError \(its message may quote the worker's files/);
      for (const said of [load, run]) expect(said).not.toContain('TOPSECRET');
      // The worker's own log has the whole of both (a job redelivered on a loaded machine is logged again: not counted).
      expect(logged.some((m) => m.includes('"TOPSECRET-"... is not valid JSON')), logged.join('\n')).toBe(true);
      expect(logged.some((m) => m.includes(`Unexpected token in "${SECRET}"`)), logged.join('\n')).toBe(true);
    } finally {
      await executor.close();
      await worker.close();
      await env.close?.();
    }
  });
});

it('a worker whose roots are the whole disk, or whose --path-map target is outside its roots, is refused at start', async () => {
  const root = join(work, 'served');
  mkdirSync(root, { recursive: true });
  const whole = await automemoInProcess('worker', '--queue', redis.url, '--env-root', '/');
  expect(whole.code).toBe(2);
  expect(whole.err).toMatch(/--env-root \/ is the whole disk/);
  const outside = await automemoInProcess(
    'worker',
    '--queue',
    redis.url,
    '--env-root',
    root,
    '--path-map',
    `/data=${join(work, 'elsewhere')}`,
  );
  expect(outside.code).toBe(2);
  expect(outside.err).toMatch(/--path-map \/data=.*elsewhere is not under an --env-root/);
  await withHost(offline, async (services) => {
    expect(() => workerContext(offline, services, () => undefined, { roots: ['/'] })).toThrow(UsageError);
    expect(() =>
      workerContext(offline, services, () => undefined, { roots: [root], pathMap: [{ from: '/data', to: '/etc' }] }),
    ).toThrow(/is not under an --env-root/);
  });
});
