// automemo as a researcher gets it: `npm pack`, the tarball installed in a folder outside the repository, their own
// benchmark module beside it (examples/vault-env, written against the public API only), then the installed CLI,
// the library from a plain .ts file, and a TypeScript consumer of its types. Nothing of automemo is edited for the
// benchmark. Every other command on a benchmark outside the repository: test/cli/outside-benchmark.test.ts.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../foundation/paths.ts';
import { cliEnv } from '../support/cli.ts';

const scratch = mkdtempSync(join(tmpdir(), 'automemo-packed-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(
  cmd: string,
  args: string[],
  extraEnv: Record<string, string> = {},
): { code: number | null; out: string; err: string } {
  const r = spawnSync(cmd, args, {
    cwd: scratch,
    encoding: 'utf8',
    env: { ...cliEnv, npm_config_update_notifier: 'false', ...extraEnv },
    timeout: 300_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const automemo = (...args: string[]) =>
  run(process.execPath, [join(scratch, 'node_modules', 'automemo', 'bin', 'automemo.js'), ...args]);

beforeAll(() => {
  const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', scratch], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: cliEnv,
  });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const tarball = join(scratch, (JSON.parse(packed.stdout) as { filename: string }[])[0]?.filename as string);
  writeFileSync(
    join(scratch, 'package.json'),
    JSON.stringify({ name: 'my-benchmark', version: '1.0.0', private: true, type: 'module' }),
  );
  // Install scripts compile isolated-vm and hnswlib-node (a minute or more on two cores); the test installs
  // without them and takes the native builds from this checkout: same Node ABI, same machine, as a prebuilt would be.
  const installed = run('npm', ['install', tarball, '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline']);
  if (installed.code !== 0) throw new Error(`npm install of the tarball failed: ${installed.err}`);
  for (const [pkg, dir] of [
    ['isolated-vm', 'out'],
    ['hnswlib-node', 'build'],
  ])
    cpSync(
      join(repoRoot, 'node_modules', pkg as string, dir as string),
      join(scratch, 'node_modules', pkg as string, dir as string),
      { recursive: true },
    );
  copyFileSync(join(repoRoot, 'examples', 'vault-env', 'env.ts'), join(scratch, 'my-env.ts'));
}, 300_000);

describe('automemo installed from its tarball, with a benchmark of its own', () => {
  it('ships the engine, not the tests', () => {
    expect(existsSync(join(scratch, 'node_modules', 'automemo', 'api', 'index.ts'))).toBe(true);
    expect(existsSync(join(scratch, 'node_modules', 'automemo', 'test'))).toBe(false);
  });

  it('searches on a module environment beside it with the installed CLI, recording where the module is', () => {
    // The dense seed embeds through the installed model. (Screening all seven standard designs, the default, would
    // evaluate six more programs and test nothing more.)
    const searched = automemo(
      'search',
      '--env',
      './my-env.ts',
      '--seeds',
      'dense',
      '--budget',
      '1',
      '--no-test',
      '--out',
      'run1',
    );
    expect(searched.code, searched.err).toBe(0);
    expect(searched.out).toContain(`env ./my-env.ts from ${join(scratch, 'my-env.ts')}`);
    const info = JSON.parse(readFileSync(join(scratch, 'run1', 'run.json'), 'utf8'));
    expect(info.envSource).toMatchObject({
      kind: 'module',
      name: 'vaults',
      path: join(scratch, 'my-env.ts'),
      files: 1,
    });
    expect(info.versions['isolated-vm']).toBe('5.0.4');
  }, 300_000);

  it("gives a TypeScript consumer the API's types with nothing else installed: options are checked, results typed", () => {
    // No @types/node in the consumer (automemo's types name bytes as Uint8Array and the environment as a record).
    // Under skipLibCheck a name @types/node would give is silently any; checking every library instead costs ~20 s,
    // so the declaration files the consumer reaches are read for such names.
    expect(existsSync(join(scratch, 'node_modules', '@types', 'node'))).toBe(false);
    writeFileSync(
      join(scratch, 'consumer.ts'),
      `import { search, defineEnvironment, type SearchResult } from 'automemo';
import { defineMemo, type MemoProgram } from 'automemo/contract';
import { Bm25Index } from 'automemo/lib';
import { renderUnits } from 'automemo/lib/units';
const env = defineEnvironment({ name: 'typed', summary: 'types only', load: () => ({ tasks: [], agent: { id: 'a', run: async () => ({ steps: [] }) }, description: 'd', reward: 'r' }) });
export async function typed(): Promise<number> {
  const r: SearchResult = await search({ env, budget: 1, signal: new AbortController().signal });
  // @ts-expect-error budget is a number
  await search({ env, budget: 'lots' });
  // @ts-expect-error a policy is one of the policies' names
  await search({ env, policy: 'ucbb' });
  return r.winner.validation;
}
export const program: MemoProgram = defineMemo({
  async update() {},
  async retrieve() { return { text: \`\${typeof Bm25Index} \${typeof renderUnits}\`, images: [] }; },
});
`,
    );
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    // One compiler run checks the consumer and lists the files it read (a second, listing only, parsed them again).
    const r = run(process.execPath, [tsc, '-p', 'tsconfig.json', '--listFiles']);
    expect(r.code, r.out + r.err).toBe(0);
    const reached = r.out.split('\n').filter((f) => f.includes('node_modules/automemo/'));
    expect(reached.length).toBeGreaterThan(20);
    const nodeOnly = reached.filter((f) =>
      /\bBuffer\b|\bNodeJS\.|from ['"]node:|types="node"/.test(readFileSync(f.trim(), 'utf8')),
    );
    expect(nodeOnly).toEqual([]);
  }, 120_000);

  it('runs the same search from a plain .ts file through the library API', () => {
    // The CLI search above embeds through the installed model and takes a step; here the seed is bm25 and the budget
    // 0, since what is tested is the library's way in.
    writeFileSync(
      join(scratch, 'lib-search.ts'),
      `import { search, listEnvironments } from 'automemo';
const result = await search({ env: './my-env.ts', budget: 0, out: 'run2', test: false, seeds: ['bm25'] });
console.log(JSON.stringify({ winner: result.winner.id, steps: result.steps, source: result.env.source.kind, builtins: listEnvironments().map((e) => e.name) }));
`,
    );
    const r = run(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'lib-search.ts']);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out.trim().split('\n').at(-1) as string);
    expect(out).toMatchObject({ steps: 0, source: 'module' });
    expect(out.builtins).toContain('locomo');
    // Without Node's flag, the library says what to do instead of crashing in isolated-vm.
    const noFlag = run(process.execPath, ['--import', 'tsx', 'lib-search.ts']);
    expect(noFlag.code).not.toBe(0);
    expect(noFlag.err).toContain("needs Node's --no-node-snapshot flag");
  }, 300_000);
});
