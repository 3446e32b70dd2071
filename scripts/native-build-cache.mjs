// Native addons (isolated-vm, hnswlib-node) compile from source here: their prebuilt binaries live on GitHub,
// which this machine cannot reach. The compile is ~80 s of every fresh install, so the built files are kept in a
// per-user cache outside the checkout (like npm's own cache), keyed by everything that makes them differ: package,
// version, the lockfile's integrity, Node's ABI, platform and architecture. A cached build is used only when every
// file's sha256 matches its manifest and the package then loads; anything else rebuilds it from source.
// Node built-ins only: this runs before node_modules exists.
//
// Run directly in a project that installed automemo with `npm install --ignore-scripts` (npm runs each package's
// own install script otherwise, which knows nothing of this cache), it runs the install scripts that were skipped,
// taking native builds from the cache: `node node_modules/automemo/scripts/native-build-cache.mjs`.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** What compiling takes, said before it starts: npm shows nothing while a compiler runs. */
const COMPILE_NOTE =
  'compiling from source (their prebuilt binaries are downloaded from GitHub, which this install does not use): ' +
  'about 80 s on two idle cores, several minutes on a busy machine; the build is kept for the next install';

/**
 * The install scripts of the packages in root's package-lock.json that have one (skipped by an install with
 * --ignore-scripts); native addons come from the cache when it holds a verified build for this exact package and
 * Node (AUTOMEMO_NO_BUILD_CACHE=1 always compiles), and a fresh build is kept there.
 */
export function runInstallScripts(root, { say, run, env = process.env }) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const scripted = Object.entries(lock.packages ?? {})
    .filter(([path, entry]) => path.includes('node_modules/') && entry.hasInstallScript)
    .map(([path, entry]) => [path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), entry]);
  const cacheRoot = buildCacheDir(env);
  const useCache = env.AUTOMEMO_NO_BUILD_CACHE !== '1';
  const rebuild = new Set();
  const restored = [];
  const toStore = [];
  for (const [name, locked] of scripted) {
    if (!useCache || !Object.hasOwn(NATIVE_OUTPUTS, name)) {
      rebuild.add(name);
      continue;
    }
    const entry = join(cacheRoot, buildKey(name, locked));
    if (restoreBuild(root, name, entry)) restored.push(name);
    else {
      rebuild.add(name);
      toStore.push([name, entry]);
    }
  }
  if (restored.length) say(`native builds of ${restored.join(', ')} taken from ${cacheRoot}`);
  if (rebuild.size) {
    const compiled = [...rebuild].filter((n) => Object.hasOwn(NATIVE_OUTPUTS, n));
    if (compiled.length) say(`${compiled.join(', ')}: ${COMPILE_NOTE}`);
    // onnxruntime-node's script only fetches GPU libraries; the CPU binary ships in the package.
    const ms = run('npm', ['rebuild', ...rebuild], { ONNXRUNTIME_NODE_INSTALL: 'skip' });
    say(`install scripts of ${[...rebuild].join(', ')} ran in ${(ms / 1000).toFixed(1)} s`);
  }
  for (const [name, entry] of toStore) {
    try {
      mkdirSync(cacheRoot, { recursive: true });
      if (storeBuild(root, name, entry)) say(`kept the build of ${name} in ${entry}`);
    } catch (err) {
      say(`could not keep the build of ${name} in ${cacheRoot} (${err.message}); the next fresh install compiles it again`);
    }
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? '.');
  const say = (line) => process.stderr.write(`[automemo install] ${line}\n`);
  const run = (cmd, args, extra = {}) => {
    const started = Date.now();
    const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...extra } });
    if (res.error || res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} ${res.error ? `could not start: ${res.error.message}` : `exited with ${res.status}`}`);
    return Date.now() - started;
  };
  try {
    if (!existsSync(join(root, 'package-lock.json'))) throw new Error(`${root} has no package-lock.json: run this in the project that installed automemo (npm install --ignore-scripts automemo)`);
    runInstallScripts(root, { say, run });
  } catch (err) {
    say(`failed: ${err.message}`);
    process.exit(1);
  }
}
