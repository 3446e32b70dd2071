// Native addons (isolated-vm, hnswlib-node) compile from source here: their prebuilt binaries live on GitHub,
// which this machine cannot reach. The compile is ~80 s of every fresh install, so the built files are kept in a
// per-user cache outside the checkout (like npm's own cache), keyed by everything that makes them differ: package,
// version, the lockfile's integrity, Node's ABI, platform and architecture. A cached build is used only when every
// file's sha256 matches its manifest and the package then loads; anything else rebuilds it from source.
// Node built-ins only: this runs before node_modules exists.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Where the built files of each native package live inside it. */
export const NATIVE_OUTPUTS = {
  'isolated-vm': ['out/isolated_vm.node'],
  'hnswlib-node': ['build/Release/addon.node'],
};

const MANIFEST = 'manifest.json';

export function buildCacheDir(env = process.env) {
  if (env.AUTOMEMO_BUILD_CACHE) return env.AUTOMEMO_BUILD_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'automemo', 'native-builds');
}

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The cache entry's name for one locked package on this Node. */
export function buildKey(name, locked) {
  const parts = [name, locked.version, locked.integrity ?? '', process.versions.modules, process.platform, process.arch];
  return `${name}-${locked.version}-${createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16)}`;
}

function loads(root, name) {
  const res = spawnSync(process.execPath, ['--no-node-snapshot', '-e', `require(${JSON.stringify(name)})`], { cwd: root, encoding: 'utf8' });
  return res.status === 0;
}

/** Copies a verified cached build into node_modules; false when there is none or it does not check out. */
export function restoreBuild(root, name, entry) {
  const manifestPath = join(entry, MANIFEST);
  if (!existsSync(manifestPath)) return false;
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch {
    return false;
  }
  const outputs = NATIVE_OUTPUTS[name];
  for (const rel of outputs) {
    const cached = join(entry, rel);
    if (typeof manifest.files?.[rel] !== 'string' || !existsSync(cached) || sha256(cached) !== manifest.files[rel]) return false;
  }
  for (const rel of outputs) {
    const target = join(root, 'node_modules', name, rel);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(entry, rel), target);
  }
  return loads(root, name);
}

/** Stores a fresh build: written beside the entry, then renamed into place, so a reader never sees half of one. */
export function storeBuild(root, name, entry) {
  const outputs = NATIVE_OUTPUTS[name];
  if (!outputs.every((rel) => existsSync(join(root, 'node_modules', name, rel)))) return false;
  const staging = `${entry}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const files = {};
  for (const rel of outputs) {
    const from = join(root, 'node_modules', name, rel);
    const to = join(staging, rel);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
    files[rel] = sha256(to);
  }
  writeFileSync(join(staging, MANIFEST), `${JSON.stringify({ name, files, node: process.version }, null, 2)}\n`);
  // An entry that failed its check is replaced; one another install just wrote is as good as ours.
  if (existsSync(entry)) rmSync(entry, { recursive: true, force: true });
  try {
    renameSync(staging, entry);
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
  return true;
}
