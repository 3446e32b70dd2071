// The install's cache of native builds: a verified build is reused, anything else is compiled again.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../foundation/paths.ts';
// @ts-expect-error a plain .mjs script of the install step, without types
import { buildKey, restoreBuild, storeBuild } from '../../scripts/native-build-cache.mjs';

const work = mkdtempSync(join(tmpdir(), 'native-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A checkout whose hnswlib-node is a stand-in that loads when its built file is there (and `good`). */
function checkout(name: string, opts: { built?: string; good?: boolean } = {}): string {
  const root = join(work, name);
  const pkg = join(root, 'node_modules', 'hnswlib-node');
  mkdirSync(join(pkg, 'build', 'Release'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'hnswlib-node', version: '3.0.0', main: 'index.js' }));
  const body = opts.good === false ? 'throw new Error("wrong ABI")' : 'require("fs").readFileSync(__dirname + "/build/Release/addon.node")';
  writeFileSync(join(pkg, 'index.js'), body);
  if (opts.built !== undefined) writeFileSync(join(pkg, 'build', 'Release', 'addon.node'), opts.built);
  return root;
}
const built = (root: string) => join(root, 'node_modules', 'hnswlib-node', 'build', 'Release', 'addon.node');

describe('native build cache', () => {
  const locked = { version: '3.0.0', integrity: 'sha512-abc' };
  const entry = join(work, 'cache', buildKey('hnswlib-node', locked));

  it('keys a build by package, version, lockfile integrity and this Node', () => {
    expect(buildKey('hnswlib-node', locked)).toMatch(/^hnswlib-node-3\.0\.0-[0-9a-f]{16}$/);
    expect(buildKey('hnswlib-node', { ...locked, integrity: 'sha512-other' })).not.toBe(buildKey('hnswlib-node', locked));
    expect(buildKey('hnswlib-node', { ...locked, version: '3.0.1' })).not.toBe(buildKey('hnswlib-node', locked));
  });

  it('keeps a fresh build and gives it to the next clean checkout', () => {
    expect(storeBuild(checkout('first', { built: 'compiled bytes' }), 'hnswlib-node', entry)).toBe(true);
    const fresh = checkout('second');
    expect(restoreBuild(fresh, 'hnswlib-node', entry)).toBe(true);
    expect(readFileSync(built(fresh), 'utf8')).toBe('compiled bytes');
  });

  it('refuses a cached build whose bytes changed, or that does not load, so the install compiles instead', () => {
    writeFileSync(join(entry, 'build', 'Release', 'addon.node'), 'tampered bytes');
    const third = checkout('third');
    expect(restoreBuild(third, 'hnswlib-node', entry)).toBe(false);
    expect(existsSync(built(third))).toBe(false);
    storeBuild(checkout('rebuilt', { built: 'compiled bytes' }), 'hnswlib-node', entry);
    expect(restoreBuild(checkout('wrong-abi', { good: false }), 'hnswlib-node', entry)).toBe(false);
    expect(restoreBuild(checkout('fourth'), 'hnswlib-node', join(work, 'cache', 'missing'))).toBe(false);
    writeFileSync(join(entry, 'manifest.json'), '{not json');
    expect(restoreBuild(checkout('fifth'), 'hnswlib-node', entry)).toBe(false);
  });

  it('stores nothing when the build is not there', () => {
    expect(storeBuild(checkout('unbuilt'), 'hnswlib-node', join(work, 'cache', 'none'))).toBe(false);
    expect(existsSync(join(work, 'cache', 'none'))).toBe(false);
  });
});

describe('a project that installed automemo with --ignore-scripts', () => {
  const locked = { version: '3.0.0', integrity: 'sha512-project', hasInstallScript: true };
  /** Runs the script as a user would, in the project's folder, with its own cache folder. */
  const install = (root: string, cache: string) =>
    spawnSync(process.execPath, [join(repoRoot, 'scripts', 'native-build-cache.mjs')], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, AUTOMEMO_BUILD_CACHE: cache, npm_config_update_notifier: 'false', npm_config_offline: 'true' },
      timeout: 120_000,
    });
  const project = (name: string) => {
    const root = checkout(name);
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, dependencies: { 'hnswlib-node': '3.0.0' } }));
    writeFileSync(join(root, 'package-lock.json'), JSON.stringify({ name, lockfileVersion: 3, packages: { '': { name }, 'node_modules/hnswlib-node': locked } }));
    return root;
  };

  it('takes the native build from the cache a checkout filled, saying so', () => {
    const cache = join(work, 'project-cache');
    storeBuild(checkout('filled', { built: 'compiled bytes' }), 'hnswlib-node', join(cache, buildKey('hnswlib-node', locked)));
    const root = project('project-warm');
    const r = install(root, cache);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`[automemo install] native builds of hnswlib-node taken from ${cache}`);
    expect(r.stderr).not.toContain('compiling');
    expect(readFileSync(built(root), 'utf8')).toBe('compiled bytes');
  });

  it('says what compiling takes before it starts when the cache has no build', () => {
    const r = install(project('project-cold'), join(work, 'empty-cache'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/hnswlib-node: compiling from source .*about 80 s on two idle cores, several minutes on a busy machine/);
    expect(r.stderr).toContain('install scripts of hnswlib-node ran in');
  });

  it('names what is missing when run outside a project', () => {
    const r = install(join(work, 'cache'), join(work, 'empty-cache'));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/has no package-lock\.json: run this in the project that installed automemo/);
  });
});
