// The open registry as a researcher meets it: their module (from a folder outside the repository, importing its own
// files), an installed package, and every way a definition can be wrong, each with a message naming the problem.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ownAutomemo } from '../../../api/environments.ts';
import { InfraError } from '../../../engine/environment/contract.ts';
import { defineEnvironment, type LoadContext } from '../../../engine/environment/define.ts';
import { EnvironmentRegistry } from '../../../engine/environment/registry.ts';

const dir = mkdtempSync(join(tmpdir(), 'env-registry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const builtin = defineEnvironment({
  name: 'toy',
  summary: 'a toy',
  options: '<n>',
  load: () => ({ tasks: [], agent: { id: 'a', run: async () => ({ steps: [] }) }, description: 'd', reward: 'r' }),
});

function write(rel: string, text: string): string {
  const p = join(dir, rel);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  return p;
}

write('bench/tasks.ts', `export const TASKS = ['a', 'b'];\n`);
write(
  'bench/env.ts',
  `import { TASKS } from './tasks.ts';
export default { name: 'my-bench', summary: 'my benchmark (' + TASKS.length + ' tasks)', load: () => { throw new Error('not loaded in this test'); } };
`,
);

describe('the environment registry', () => {
  it('lists what is registered and the other forms --env takes', () => {
    const r = new EnvironmentRegistry([builtin]);
    expect(r.help()).toMatch(/toy:<n>\s+a toy/);
    expect(r.help()).toMatch(/\.\/path\/to\/env\.ts/);
    expect(() => r.register({ ...builtin })).toThrow(/already registered/);
  });

  it('resolves a module from anywhere on disk, and fingerprints it with the files it imports', async () => {
    const r = new EnvironmentRegistry([builtin]);
    const got = await r.resolve('./bench/env.ts:hard', dir);
    expect(got.definition.name).toBe('my-bench');
    expect(got.definition.summary).toBe('my benchmark (2 tasks)');
    expect(got.source).toMatchObject({
      kind: 'module',
      name: 'my-bench',
      arg: 'hard',
      path: join(dir, 'bench/env.ts'),
      files: 2,
    });
    expect(got.source.hash).toMatch(/^[0-9a-f]{16}$/);

    const same = await r.reopen(got.source);
    expect(same.changed).toBeUndefined();
    // An imported file changes: the module is the same file, but not the same code.
    write('bench/tasks.ts', `export const TASKS = ['a', 'b', 'c'];\n`);
    const later = await r.reopen(got.source);
    expect(later.changed).toMatch(/changed since this run started/);
    expect(later.source.hash).not.toBe(got.source.hash);
  });

  it('resolves an installed package by name, from the nearest node_modules', async () => {
    write(
      'proj/node_modules/@lab/bench/package.json',
      JSON.stringify({ name: '@lab/bench', type: 'module', exports: { '.': { import: './main.js' } } }),
    );
    write(
      'proj/node_modules/@lab/bench/main.js',
      `export default { name: 'lab-bench', summary: 'from a package', load() { return {}; } };\n`,
    );
    mkdirSync(join(dir, 'proj/src'), { recursive: true });
    const got = await new EnvironmentRegistry([builtin]).resolve('@lab/bench:small', join(dir, 'proj/src'));
    expect(got.source).toMatchObject({ kind: 'module', name: 'lab-bench', arg: 'small' });
    await expect(new EnvironmentRegistry().resolve('no-such-bench', dir)).rejects.toThrow(
      /no installed package of that name/,
    );
  });

  it('names every wrong part of a definition', async () => {
    const r = new EnvironmentRegistry([builtin]);
    write('bad/none.ts', `export const x = 1;\n`);
    await expect(r.resolve('./bad/none.ts', dir)).rejects.toThrow(/has no default export/);
    write('bad/shape.ts', `export default { name: 'Bad Name', load: 3 };\n`);
    const err = await r.resolve('./bad/shape.ts', dir).catch((e: Error) => e.message);
    expect(err).toMatch(/name must be lower-case/);
    expect(err).toMatch(/summary is missing/);
    expect(err).toMatch(/load must be a function/);
    write('bad/throws.ts', `throw new Error('boom at import');\n`);
    await expect(r.resolve('./bad/throws.ts', dir)).rejects.toThrow(/failed to load: boom at import/);
    await expect(r.resolve('./bad/missing.ts', dir)).rejects.toThrow(/does not exist/);
  });

  it('refuses a recorded builtin that is not registered here', async () => {
    await expect(new EnvironmentRegistry().reopen({ spec: 'toy', kind: 'builtin', name: 'toy' })).rejects.toThrow(
      /not registered here/,
    );
  });
});

describe('a module anywhere on disk', () => {
  const registry = new EnvironmentRegistry([], { ownAutomemo });
  const ctx = { seed: 0, onNote: () => undefined } as unknown as LoadContext;

  it('imports automemo, its contract and its helpers with none installed, as an ES module under a CommonJS package.json', async () => {
    write('cjs/package.json', JSON.stringify({ name: 'cjs-bench', type: 'commonjs' }));
    write(
      'cjs/lib/words.ts',
      `import { tokenize } from 'automemo/lib';\nimport { jaccard } from 'automemo/lib/jaccard';\nexport const words = (s: string) => tokenize(s);\nexport const same = jaccard;\n`,
    );
    write(
      'cjs/env.ts',
      `import { defineEnvironment, InfraError } from 'automemo';
import { defineMemo } from 'automemo/contract';
import { words, same } from './lib/words';
export default defineEnvironment({
  name: 'anywhere',
  summary: 'tokens: ' + words('Hello there, world').length + ', overlap ' + same(new Set(['a']), new Set(['a'])) + ', memo ' + typeof defineMemo,
  load: () => { throw new InfraError('the site is down'); },
});
`,
    );
    const got = await registry.resolve(join(dir, 'cjs/env.ts'), dir);
    expect(got.definition.summary).toBe('tokens: 3, overlap 1, memo function');
    expect(got.source).toMatchObject({ files: 2 });
    expect(got.notes).toBeUndefined();
    // The module's InfraError is the engine's: its failures are the machinery's, never a program's.
    const thrown = await Promise.resolve()
      .then(() => got.definition.load(ctx))
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(InfraError);
  });

  it('gets the running automemo when another is installed beside it, and says so', async () => {
    write(
      'own/node_modules/automemo/package.json',
      JSON.stringify({ name: 'automemo', version: '9.9.9', type: 'module', exports: { '.': './index.js' } }),
    );
    write(
      'own/node_modules/automemo/index.js',
      `export const defineEnvironment = (d) => ({ ...d, summary: d.summary + ' (their automemo)' });\nexport class InfraError extends Error { [Symbol.for('automemo.InfraError')] = true; }\n`,
    );
    write(
      'own/env.ts',
      `import { defineEnvironment } from 'automemo';\nexport default defineEnvironment({ name: 'own', summary: 'beside', load: () => ({}) });\n`,
    );
    const got = await registry.resolve(join(dir, 'own/env.ts'), dir);
    // One automemo per process: a second copy's engine (and its isolated-vm) never loads beside the running one.
    expect(got.definition.summary).toBe('beside');
    const theirs = join(dir, 'own/node_modules/automemo');
    expect(got.notes?.[0]).toContain(
      `imports automemo 9.9.9 installed at ${theirs}; it runs with the automemo running it (`,
    );
    expect(got.notes?.[0]).toContain(`To run with that copy: node ${join(theirs, 'bin', 'automemo.js')} …`);
  });

  it('names a syntax error by file:line:col with the line, and where an error thrown while loading was raised', async () => {
    write('syntax/env.ts', `export default {\n  name: 'x',\n  summary: 's'\n  load() {},\n};\n`);
    const err = await registry.resolve(join(dir, 'syntax/env.ts'), dir).catch((e: Error) => e.message);
    expect(err).toContain(`${join(dir, 'syntax/env.ts')}:4:3: Expected "}" but found "load"`);
    expect(err).toContain('    load() {},\n      ^');
    write(
      'throws/helper.ts',
      `export function boom(): never {\n  throw new TypeError('tasks.json is not there');\n}\n`,
    );
    write('throws/env.ts', `import { boom } from './helper.ts';\nboom();\nexport default {};\n`);
    const thrown = await registry.resolve(join(dir, 'throws/env.ts'), dir).catch((e: Error) => e.message);
    expect(thrown).toMatch(
      new RegExp(`failed to load: tasks\\.json is not there \\(at ${join(dir, 'throws/helper.ts')}:\\d+:\\d+\\)`),
    );
  });
});
