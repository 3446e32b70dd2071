#!/usr/bin/env node
// The project's own install step (Node built-ins only), run before `npm run demo` and `npm test`.
// - `npm ci` when node_modules is missing or was installed from another package-lock.json;
// - Debian packages through apt, only those the command asks for (`--for web,queue`: Chromium, redis-server) and
//   only when they are absent (scripts/apt-needs.mjs).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aptPackagesFor, capabilitiesFrom } from './apt-needs.mjs';
import { runInstallScripts } from './native-build-cache.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stampPath = join(root, 'node_modules', '.automemo-install-stamp');
const lockPath = join(root, 'package-lock.json');

function say(line) {
  process.stderr.write(`[install] ${line}\n`);
}

function run(cmd, args, env = {}) {
  const started = Date.now();
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (res.error) throw new Error(`${cmd} ${args.join(' ')} could not start: ${res.error.message}`);
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${res.status}`);
  return Date.now() - started;
}

function lockHash() {
  return createHash('sha256').update(readFileSync(lockPath)).digest('hex');
}

function ensureNodeModules() {
  const want = lockHash();
  const have = existsSync(stampPath) ? readFileSync(stampPath, 'utf8').trim() : '';
  if (have === want && existsSync(join(root, 'node_modules', '.package-lock.json'))) return;
  say(have ? 'package-lock.json changed since the last install: running npm ci' : 'node_modules is missing: running npm ci');
  const ms = run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund']);
  say(`npm ci --ignore-scripts finished in ${(ms / 1000).toFixed(1)} s`);
  runInstallScripts(root, { say, run });
  writeFileSync(stampPath, `${want}\n`);
}

// Debian packages the command needs (`--for web,queue`), when their binaries are absent; none by default.
function ensureApt(capabilities) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const names = aptPackagesFor(pkg.automemo?.apt ?? [], capabilities, existsSync);
  if (names.length === 0) return;
  const asRoot = process.getuid?.() === 0;
  const sudo = asRoot ? [] : ['sudo', '-n'];
  say(`installing Debian packages: ${names.join(', ')}`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const prefix = (args) => (sudo.length ? [sudo[0], [...sudo.slice(1), ...args]] : [args[0], args.slice(1)]);
  try {
    run(...prefix(['apt-get', 'update', '-qq']), env);
    run(...prefix(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...names]), env);
  } catch (err) {
    throw new Error(
      `could not install ${names.join(', ')} through apt (${err.message}). ` +
        `Install them with: apt-get install ${names.join(' ')}`,
      { cause: err },
    );
  }
}

try {
  const capabilities = capabilitiesFrom(process.argv.slice(2));
  ensureNodeModules();
  ensureApt(capabilities);
} catch (err) {
  say(`failed: ${err.message}`);
  process.exit(1);
}
