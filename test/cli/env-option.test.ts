// --env as a user meets it on the command line: the help lists what is registered and the other forms, and a
// module that is missing or wrong is a usage error (exit 2) naming the problem (and the task), without the usage text.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { automemoInProcess } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'env-option-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--env on the command line', () => {
  it('lists the registered environments and the other forms in each command\'s help', async () => {
    for (const command of ['search', 'eval', 'baselines']) {
      const r = await automemoInProcess(command, '--help');
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/locomo\s+long conversations/);
      expect(r.out).toMatch(/visual:<family,\.\.\.>/);
      expect(r.out).toMatch(/web:<site,\.\.\.>/);
      expect(r.out).toMatch(/\.\/path\/to\/env\.ts/);
    }
  });

  it('names a missing module, a module without a definition, and each wrong part, with exit 2', async () => {
    const missing = await automemoInProcess('eval', '--env', join(dir, 'nope.ts'), '--program', 'bm25');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/environment module .*nope\.ts does not exist/);

    writeFileSync(join(dir, 'empty.ts'), 'export const x = 1;\n');
    const empty = await automemoInProcess('baselines', '--env', join(dir, 'empty.ts'));
    expect(empty.code).toBe(2);
    expect(empty.err).toMatch(/has no default export: end it with export default defineEnvironment/);

    writeFileSync(join(dir, 'half.ts'), "export default { name: 'half', summary: 'half done', load: () => ({ tasks: [], description: 'd' }) };\n");
    const half = await automemoInProcess('search', '--env', join(dir, 'half.ts'), '--out', join(dir, 'run'));
    expect(half.code).toBe(2);
    expect(half.err).toMatch(/the task spec is not usable:\n {2}- agent is missing.*\n {2}- reward is missing.*\n {2}- tasks is empty/);
  });

  it('names the task whose meta refers to itself, without the command\'s usage (the problem is in the module)', async () => {
    writeFileSync(
      join(dir, 'cyclic.mjs'),
      "const meta = { note: 'x' }; meta.self = meta;\n" +
        "export default { name: 'cyclic', summary: 's', load: () => ({ description: 'd', reward: 'r', check: () => 1,\n" +
        "  agent: { id: 'a/1', run: async () => ({ steps: [] }) },\n" +
        "  tasks: Array.from({ length: 10 }, (_, i) => ({ id: `t${i}`, scenario: 'a', instruction: 'say', ...(i === 3 ? { meta } : {}) })) }) };\n",
    );
    const r = await automemoInProcess('eval', '--env', join(dir, 'cyclic.mjs'), '--program', 'bm25', '--out', join(dir, 'cyclic-out'));
    expect(r.code).toBe(2);
    expect(r.err).toContain('tasks[3].meta (task "t3") is not JSON data: it refers to itself at meta.self');
    expect(r.err).not.toContain('Converting circular structure');
    expect(r.err).not.toContain('Options:');
  });
});
