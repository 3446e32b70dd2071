// A worker on another machine finds the search's environment module or data file under another folder with
// --path-map; the environment is still checked against the search's content hash (which leaves out where files
// sit), and a worker without the mapping refuses by name.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openNamed } from '../../../api/environments.ts';
import { withHost } from '../../../api/host.ts';
import { workerContext } from '../../../api/workers.ts';
import type { EnvSource } from '../../../engine/environment/registry.ts';
import { environmentHash } from '../../../engine/jobs/env-hash.ts';
import { mapEnvRef, mapPath, parsePathMapping } from '../../../engine/jobs/path-map.ts';
import { resolveModels } from '../../../engine/llm/models.ts';
import { repoRoot } from '../../../sandbox/paths.ts';

const work = mkdtempSync(join(tmpdir(), 'path-map-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('path mappings', () => {
  it('map whole path segments only, first mapping first', () => {
    const maps = [parsePathMapping('/srv/search/envs=/home/w/envs'), parsePathMapping('/srv=/opt/srv/')];
    expect(mapPath('/srv/search/envs/vault/env.ts', maps)).toBe('/home/w/envs/vault/env.ts');
    expect(mapPath('/srv/search/envs', maps)).toBe('/home/w/envs');
    expect(mapPath('/srv/search/envs2/x', maps)).toBe('/opt/srv/search/envs2/x');
    expect(mapPath('/srvx/a', maps)).toBe('/srvx/a');
    expect(mapEnvRef({ source: { spec: 'data:/srv/d/q.jsonl', kind: 'builtin', name: 'data', arg: '/srv/d/q.jsonl' }, openSeed: 0, hash: '0'.repeat(16), data: '/srv/d' }, maps)).toEqual({
      source: { spec: 'data:/opt/srv/d/q.jsonl', kind: 'builtin', name: 'data', arg: '/opt/srv/d/q.jsonl' },
      openSeed: 0,
      hash: '0'.repeat(16),
      data: '/opt/srv/d',
    });
  });

  it('refuse what is not FROM=TO with absolute folders, naming it', () => {
    expect(() => parsePathMapping('/a')).toThrow('--path-map takes FROM=TO');
    expect(() => parsePathMapping('a=/b')).toThrow('absolute folders');
    expect(() => parsePathMapping('/a=')).toThrow('--path-map takes FROM=TO');
  });
});

it('lets a worker open a module environment the search had elsewhere, still checked by content hash', async () => {
  const models = resolveModels({}, {});
  await withHost(models, async (services) => {
    const there = join(work, 'search-machine');
    const here = join(work, 'worker-machine');
    mkdirSync(there);
    cpSync(join(repoRoot, 'examples', 'vault-env'), join(there, 'vault-env'), { recursive: true });
    const { env, source } = await openNamed(join(there, 'vault-env', 'env.ts'), { models, images: services.images, seed: 0, onNote: () => undefined });
    const ref = { source: source as EnvSource, openSeed: 0, hash: environmentHash(env, source) };
    await env.close?.();
    // The module is not where the search had it on this machine.
    renameSync(there, here);
    await expect(workerContext(models, services, () => undefined).environment(ref)).rejects.toThrow(/cannot open the environment/);
    const mapped = await workerContext(models, services, () => undefined, { pathMap: [parsePathMapping(`${there}=${here}`)] }).environment(ref);
    expect(environmentHash(mapped, mapEnvRef(ref, [parsePathMapping(`${there}=${here}`)]).source)).toBe(ref.hash);
    expect((await mapped.worlds('test')).length).toBeGreaterThan(0);
    await mapped.close?.();
  });
});

it('lets a worker open a data file the search had elsewhere: the same content hash, wherever the file sits', async () => {
  const models = resolveModels({}, {});
  await withHost(models, async (services) => {
    const there = join(work, 'search-data');
    const here = join(work, 'worker-data');
    mkdirSync(there);
    cpSync(join(repoRoot, 'examples', 'qa-data'), join(there, 'qa'), { recursive: true });
    const { env, source } = await openNamed(`data:${join(there, 'qa', 'team-notes.jsonl')}`, { models, images: services.images, seed: 0, onNote: () => undefined });
    const ref = { source: source as EnvSource, openSeed: 0, hash: environmentHash(env, source) };
    renameSync(there, here);
    const map = [parsePathMapping(`${there}=${here}`)];
    const mapped = await workerContext(models, services, () => undefined, { pathMap: map, roots: [here] }).environment(ref);
    expect((await mapped.worlds('test')).length).toBeGreaterThan(0);
    // Other data under the same path is still refused.
    cpSync(join(here, 'qa', 'team-notes.jsonl'), join(here, 'qa', 'other.jsonl'));
    writeFileSync(join(here, 'qa', 'team-notes.jsonl'), readFileSync(join(here, 'qa', 'other.jsonl'), 'utf8').replace('Postgres', 'MySQL'));
    await expect(workerContext(models, services, () => undefined, { pathMap: map, roots: [here] }).environment(ref)).rejects.toThrow(/has a different environment data:/);
  });
});
