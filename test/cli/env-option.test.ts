// --env as a user meets it on the command line: the help lists what is registered and the other forms; a module
// that is missing is a usage error (exit 2), and one whose content is wrong fails (exit 1) naming the problem (and
// the task, the misspelt key, the file:line:col of a syntax error), without the usage text either way.
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

  it('names a missing module (exit 2), a module without a definition, and each wrong part (exit 1)', async () => {
    const missing = await automemoInProcess('eval', '--env', join(dir, 'nope.ts'), '--program', 'bm25');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/environment module .*nope\.ts does not exist/);

    writeFileSync(join(dir, 'empty.ts'), 'export const x = 1;\n');
    const empty = await automemoInProcess('baselines', '--env', join(dir, 'empty.ts'));
    expect(empty.code).toBe(1);
    expect(empty.err).toMatch(/has no default export: end it with export default defineEnvironment/);

    writeFileSync(join(dir, 'half.ts'), "export default { name: 'half', summary: 'half done', load: () => ({ tasks: [], description: 'd' }) };\n");
    const half = await automemoInProcess('search', '--env', join(dir, 'half.ts'), '--out', join(dir, 'run'));
    expect(half.code).toBe(1);
    expect(half.err).toMatch(/the task spec is not usable:\n {2}- agent is missing.*\n {2}- reward is missing.*\n {2}- tasks is empty/);
    expect(half.err).not.toContain('Options:');
  });

  it('names a misspelt key as unknown, with the key meant, in the definition, the spec, its agent and its tasks', async () => {
    writeFileSync(
      join(dir, 'typos.mjs'),
      "export default { name: 'typos', summary: 's', lod: 1, load: () => ({ task: [], description: 'd', reward: 'r', agent: { id: 'a', run: async () => ({ steps: [] }), determinstic: true } }) };\n",
    );
    const def = await automemoInProcess('eval', '--env', join(dir, 'typos.mjs'), '--program', 'bm25');
    expect(def.code).toBe(1);
    expect(def.err).toContain('unknown key "lod" (did you mean "load"?)');
    writeFileSync(
      join(dir, 'typos2.mjs'),
      "export default { name: 'typos', summary: 's', load: () => ({ task: [], description: 'd', reward: 'r', agent: { id: 'a', run: async () => ({ steps: [] }), determinstic: true } }) };\n",
    );
    const spec = await automemoInProcess('eval', '--env', join(dir, 'typos2.mjs'), '--program', 'bm25');
    expect(spec.err).toContain('unknown key "task" (did you mean "tasks"?)');
    expect(spec.err).toContain('agent: unknown key "determinstic" (did you mean "deterministic"?)');
    writeFileSync(
      join(dir, 'typos3.mjs'),
      "export default { name: 'typos', summary: 's', load: () => ({ description: 'd', reward: 'r', check: () => 1, agent: { id: 'a', run: async () => ({ steps: [] }) },\n" +
        "  tasks: Array.from({ length: 40 }, (_, i) => ({ id: `t${i}`, scenario: 'a', instruction: 'say', ...(i >= 5 ? { wrold: 'w' } : {}) })) }) };\n",
    );
    const tasks = await automemoInProcess('eval', '--env', join(dir, 'typos3.mjs'), '--program', 'bm25');
    expect(tasks.err).toContain('tasks[5] (and 34 more tasks): unknown key "wrold" (did you mean "world"?)');
  });

  it('names a syntax error by file:line:col, and a mistyped option by the one meant', async () => {
    writeFileSync(join(dir, 'syntax.ts'), "export default {\n  name: 'x'\n  summary: 's',\n};\n");
    const syntax = await automemoInProcess('search', '--env', join(dir, 'syntax.ts'), '--out', join(dir, 'run-syntax'));
    expect(syntax.code).toBe(1);
    expect(syntax.err).toContain(`${join(dir, 'syntax.ts')}:3:3: Expected "}" but found "summary"`);
    expect(syntax.err).not.toContain('Options:');
    const typo = await automemoInProcess('search', '--env', 'locomo', '--bugdet', '3');
    expect(typo.code).toBe(2);
    expect(typo.err).toBe('automemo search: unknown option --bugdet (did you mean --budget?)\n');
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
    expect(r.code).toBe(1);
    expect(r.err).toContain('tasks[3].meta (task "t3") is not JSON data: it refers to itself at meta.self');
    expect(r.err).not.toContain('Converting circular structure');
    expect(r.err).not.toContain('Options:');
  });
});

describe('a data file with a world left out', () => {
  it('says which world and how many questions in the summary line; --strict makes it an error (exit 1, no usage)', async () => {
    const turn = (id: string) => ({ id, speaker: 'Ana', text: `We picked Postgres for billing in ${id}.` });
    const world = (id: string, extra: Record<string, unknown> = {}) => ({
      type: 'world',
      id,
      sessions: [{ time: '2024-03-04T09:00:00', turns: [turn(`${id}:1`)] }],
      questions: [1, 2, 3].map((n) => ({ id: `${id}-q${n}`, question: 'Which database?', answers: ['Postgres'] })),
      ...extra,
    });
    const lines = [{ type: 'dataset', name: 'lost', scoring: 'answer-containment' }, world('w1'), world('w2'), world('w3', { sessions: [{ time: 'soon', turns: [turn('w3:1')] }] })];
    writeFileSync(join(dir, 'lost.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
    const env = `data:${join(dir, 'lost.jsonl')}`;
    const loose = await automemoInProcess('eval', '--env', env, '--program', 'bm25', '--out', join(dir, 'loose'));
    expect(loose.code).toBe(0);
    expect(loose.err).toContain('data: lost: 2 worlds, 6 questions (6 scored); left out: world "w3" (3 questions) (--strict refuses this)');
    const strict = await automemoInProcess('eval', '--env', env, '--program', 'bm25', '--strict', '--out', join(dir, 'strict'));
    expect(strict.code).toBe(1);
    expect(strict.err).toMatch(/lost\.jsonl: left out: world "w3" \(3 questions\) \(--strict\):\n {2}- lost\.jsonl:4: world "w3", session 1: time "soon" is not a date/);
    expect(strict.err).not.toContain('Options:');
    const baselines = await automemoInProcess('baselines', '--env', env, '--programs', 'bm25', '--strict', '--out', join(dir, 'strict-baselines'));
    expect(baselines.code).toBe(1);
    expect(baselines.err).toContain('left out: world "w3" (3 questions) (--strict)');
  });
});
