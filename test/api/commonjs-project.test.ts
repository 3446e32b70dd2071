// The README's library example in a project made with `npm init -y` ("type": "commonjs"), run as the README says
// (its file name and command), with automemo installed in the project (linked, and tsx beside it as npm hoists
// automemo's dependencies). The README names an ES module file, which works there; a CommonJS file that imports
// automemo is told what works instead of esbuild's "Top-level await is currently not supported with the cjs output
// format", which named automemo's own index.js.
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../foundation/paths.ts';
import { cliEnv } from '../support/cli.ts';

const project = mkdtempSync(join(tmpdir(), 'commonjs-project-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

const init = spawnSync('npm', ['init', '-y'], { cwd: project, encoding: 'utf8', env: { ...cliEnv, npm_config_update_notifier: 'false' } });
if (init.status !== 0) throw new Error(`npm init -y failed: ${init.stderr}`);
mkdirSync(join(project, 'node_modules'));
symlinkSync(repoRoot, join(project, 'node_modules', 'automemo'));
symlinkSync(join(repoRoot, 'node_modules', 'tsx'), join(project, 'node_modules', 'tsx'));
writeFileSync(join(project, 'my-env.ts'), readFileSync(join(repoRoot, 'examples', 'vault-env', 'env.ts'), 'utf8'));

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const fromCode = readme.slice(readme.indexOf('**From code.**'), readme.indexOf('**Installing automemo in your project.**'));

const node = (args: string[]) =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    execFile(process.execPath, args, { cwd: project, env: { ...cliEnv, NODE_OPTIONS: '' }, timeout: 300_000 }, (error, out, err) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, out, err }),
    ),
  );

describe.concurrent('the library in a CommonJS project (npm init -y)', () => {
  it("runs the README's example as the README says to run it", async () => {
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).type ?? 'commonjs').toBe('commonjs');
    const command = /node --no-node-snapshot --import tsx\s+(\S+\.[cm]?[jt]s)/.exec(fromCode);
    const code = /```ts\n([\s\S]*?)```/.exec(fromCode)?.[1];
    expect(command, 'the README says how to run a script').not.toBeNull();
    expect(code).toContain("from 'automemo'");
    // A short search: step 0 only, no seeds, no test split.
    const file = command?.[1] as string;
    writeFileSync(join(project, file), (code as string).replace('budget: 20', "budget: 0, seeds: [], test: false, out: 'run'"));
    const r = await node(['--no-node-snapshot', '--import', 'tsx', file]);
    expect(r.code, r.err).toBe(0);
    // The winner (an object) and the run folder, as the example prints them.
    expect(r.out).toContain("{ id: '");
    expect(r.out.trimEnd().endsWith(' run')).toBe(true);
  }, 300_000);

  it('a CommonJS file that imports automemo is told what works', async () => {
    writeFileSync(join(project, 'old.ts'), "import { listEnvironments } from 'automemo';\nconsole.log(listEnvironments().length);\n");
    const r = await node(['--no-node-snapshot', '--import', 'tsx', 'old.ts']);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('automemo is an ES module and cannot be loaded with require(): import it from an ES module file — name yours .mts');
    expect(r.err).not.toContain('Top-level await is currently not supported');
  }, 120_000);
});
