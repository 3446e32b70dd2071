// One automemo per process. A benchmark project with automemo installed in its node_modules (as "Installing automemo
// in your project" says), run by the CLI of another copy (a clone, a global install): the module's `import
// 'automemo'` gets the running engine, never the copy beside it — two copies of the engine load two copies of
// isolated-vm, and the process aborted natively (exit 134, an isolated-vm assertion, no message). A script that
// imports a second copy's entry anyway is stopped before it loads anything, with both copies named.
// The second copy is the repository's own files hard-linked (a copy to Node: other paths), its packages linked,
// isolated-vm hard-linked as a package of its own: what a second install amounts to, made in well under a second.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../foundation/paths.ts';
import { bin, cliEnv } from '../support/cli.ts';

const project = mkdtempSync(join(tmpdir(), 'second-automemo-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** A file hard-linked (copied across file systems): to Node, a file at another path is another module. */
function linkFile(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** `from` linked file by file into `to`. */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const f = join(from, name);
    if (statSync(f).isDirectory()) linkTree(f, join(to, name));
    else linkFile(f, join(to, name));
  }
}

const theirs = join(project, 'node_modules', 'automemo');
mkdirSync(theirs, { recursive: true });
// What an install of automemo holds: its package.json's "files" (those a checkout has), and the package.json.
const FILES = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { files: string[] }).files.map((f) => f.replace(/\/$/, ''));
for (const entry of ['package.json', ...FILES.filter((f) => existsSync(join(repoRoot, f)))]) {
  const from = join(repoRoot, entry);
  mkdirSync(dirname(join(theirs, entry)), { recursive: true });
  if (statSync(from).isDirectory()) linkTree(from, join(theirs, entry));
  else linkFile(from, join(theirs, entry));
}
mkdirSync(join(theirs, 'node_modules'));
for (const name of readdirSync(join(repoRoot, 'node_modules'))) {
  if (name !== 'isolated-vm') symlinkSync(join(repoRoot, 'node_modules', name), join(theirs, 'node_modules', name));
}
linkTree(join(repoRoot, 'node_modules', 'isolated-vm'), join(theirs, 'node_modules', 'isolated-vm'));
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-bench', version: '1.0.0', type: 'module' }));
writeFileSync(join(project, 'my-env.ts'), readFileSync(join(repoRoot, 'examples', 'vault-env', 'env.ts'), 'utf8'));

const run = (args: string[]) => spawnSync(process.execPath, args, { cwd: project, encoding: 'utf8', env: cliEnv, timeout: 300_000 });

describe('a benchmark with its own automemo installed, run by another copy', () => {
  it("the module's automemo is the running one: the run finishes, and says which copy it used", () => {
    const r = run([bin, 'eval', '--env', './my-env.ts', '--program', 'bm25', '--tasks', '8', '--workers', '0', '--out', join(project, 'eval'), '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).score).toBeGreaterThan(0.5);
    expect(r.stderr).toContain(`imports automemo 0.1.0 installed at ${theirs}; it runs with the automemo running it (0.1.0 at ${repoRoot})`);
    expect(r.stderr).toContain(`To run with that copy: node ${join(theirs, 'bin', 'automemo.js')} …`);
  }, 300_000);

  it('a script importing a second copy beside the running one is stopped before it loads, naming both', () => {
    writeFileSync(
      join(project, 'both.mjs'),
      `await import(${JSON.stringify(join(repoRoot, 'index.js'))});\ntry { await import('automemo'); console.log('loaded both'); } catch (e) { console.log(e.message); }\n`,
    );
    const r = run(['--no-node-snapshot', join(project, 'both.mjs')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`two copies of automemo in one process: ${repoRoot} (0.1.0) is running, and ${theirs} (0.1.0) was imported too`);
    expect(r.stdout).toContain(`run the copy your code imports (node ${join(theirs, 'bin', 'automemo.js')} …), or remove the other`);
  }, 120_000);
});
