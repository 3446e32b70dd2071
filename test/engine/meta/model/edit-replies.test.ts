// The model writes changes, not files, against the local server through the real openai SDK: a generation answered
// with search/replace blocks gives the parent with those edits; a block that matches nowhere is named back once with
// the file's nearest lines while the others stay applied, and the correction lands on top; still unmatched after
// that, the call fails; an answer in the old whole-file form is still taken; a reply naming a path out of the
// folder is refused and asked again; a repair is shown the child as its edits and the lines where it failed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModels } from '../../../../foundation/llm/models.ts';
import { ModelMetaAgent } from '../../../../engine/meta/model/agent.ts';
import { context as sharedContext } from '../../../../engine/meta/model/prompt-parts.ts';
import { MetaAgentError, type ModelCall, type ModelParent } from '../../../../engine/meta/types.ts';
import type { QuickExamReport } from '../../../../sandbox/quick-exam.ts';
import { OpenAITestServer } from '../../../support/openai-server.ts';
import { parentContext, scoredTask } from '../../../support/parent-context.ts';
import { purposeOf, requestText } from '../../../support/recorded-session.ts';

let server: OpenAITestServer;
beforeAll(async () => {
  server = await OpenAITestServer.start();
});
afterAll(() => server.close());

const parent = [
  "import { defineMemo } from 'automemo/contract';",
  'export const config = { topK: 8, window: 1 };',
  'function rank(lines: string[]): string[] {',
  '  return lines.slice(0, config.topK);',
  '}',
  'export default defineMemo({',
  '  update() {},',
  "  retrieve() { return { text: rank([]).join('\\n'), images: [] }; },",
  '});',
  '',
].join('\n');
const block = (search: string, replace: string) =>
  `// file: index.ts\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;
const analysis = JSON.stringify({ summary: 'Widen the window.', changes: [{ change: 'window 2, topK 12' }] });

let step = 1;
function context(calls: ModelCall[] = []): ModelParent {
  const tasks = ['a', 'b'].map((id, i) => scoredTask(id, 'all', i));
  return parentContext(tasks, { files: { 'index.ts': parent }, step: step++, onModelCall: (c) => calls.push(c) });
}
const agent = () =>
  new ModelMetaAgent(
    resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1' }).meta as never,
    { clustering: 'metadata', analysis: 'program' },
  );

/** Answers the analysis, then each generation (or repair) request with the next of `programs`. */
function replies(...programs: string[]): string[] {
  const asked: string[] = [];
  server.onChat = (body) => {
    if (purposeOf(body) === 'program-analysis') return { content: analysis };
    asked.push(requestText(body));
    return { content: programs.shift() ?? 'nothing left' };
  };
  return asked;
}

describe('a program reply', () => {
  it('is search/replace blocks, which the prompt states with an example, applied to the parent', async () => {
    const asked = replies(
      `Two changes.\n\n${block('export const config = { topK: 8, window: 1 };', 'export const config = { topK: 12, window: 2 };')}\n\n${block('  update() {},', '  update() { /* nothing to keep */ },')}`,
    );
    const child = await agent().propose(context());
    expect(child.files['index.ts']).toBe(
      parent
        .replace('topK: 8, window: 1', 'topK: 12, window: 2')
        .replace('  update() {},', '  update() { /* nothing to keep */ },'),
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('Write your changes as search/replace blocks.');
    expect(asked[0]).toContain(
      '// file: index.ts\n<<<<<<< SEARCH\nexport const config = { topK: 8 };\n=======\nexport const config = { topK: 12, window: 2 };\n>>>>>>> REPLACE',
    );
  });

  it("names a block that matches nowhere back once, with the file's nearest lines; the correction lands on top of what applied", async () => {
    const calls: ModelCall[] = [];
    const asked = replies(
      `${block('export const config = { topK: 8, window: 1 };', 'export const config = { topK: 12, window: 2 };')}\n${block('  return lines.slice(0, topK);', '  return lines.slice(0, config.topK * config.window);')}`,
      block('  return lines.slice(0, config.topK);', '  return lines.slice(0, config.topK * config.window);'),
    );
    const child = await agent().propose(context(calls));
    expect(child.files['index.ts']).toContain('export const config = { topK: 12, window: 2 };');
    expect(child.files['index.ts']).toContain('  return lines.slice(0, config.topK * config.window);');
    expect(asked).toHaveLength(2);
    expect(asked[1]).toContain(
      'Of the 2 edits in your previous reply, 1 applied; this one did not:\n- edit 2 (index.ts): its SEARCH lines are not in the file (as the edits before it left it). The lines of index.ts nearest to it (lines 2–6):',
    );
    expect(asked[1]).toContain('function rank(lines: string[]): string[] {\n  return lines.slice(0, config.topK);\n}');
    expect(asked[1]).toContain('Reply with a corrected version of only this edit');
    expect(calls.filter((c) => c.purpose.startsWith('generation')).map((c) => c.purpose)).toEqual([
      'generation',
      'generation (retry 1)',
    ]);
  });

  it('takes a corrected whole answer too, and fails the call when the correction still does not match (one retry)', async () => {
    const both = `${block('export const config = { topK: 8, window: 1 };', 'export const config = { topK: 12, window: 2 };')}\n${block('  return lines.slice(0, config.topK);', '  return [];')}`;
    replies(
      `${block('export const config = { topK: 8, window: 1 };', 'export const config = { topK: 12, window: 2 };')}\n${block('  return lines;', '  return [];')}`,
      both,
    );
    expect((await agent().propose(context())).files['index.ts']).toContain('  return [];\n}');
    const asked = replies(
      block('  return nothing;', '  return [];'),
      block('  return still nothing;', '  return [];'),
      block('  return lines.slice(0, config.topK);', '  return [];'),
    );
    const failed = agent().propose(context());
    await expect(failed).rejects.toThrow(MetaAgentError);
    await expect(failed).rejects.toThrow(/after one correction, edits still do not match:\n- edit 1 \(index.ts\)/);
    expect(asked).toHaveLength(2);
  });

  it("is still taken in the old whole-file form, and refused when it names a path out of the program's folder", async () => {
    const whole =
      "```ts\n// file: index.ts\nimport { defineMemo } from 'automemo/contract';\nexport default defineMemo({ update() {}, retrieve() { return { text: 'whole', images: [] }; } });\n```";
    const asked = replies(
      `${block('  update() {},', '  update() { },')}\n// file: ../../outside.ts\n<<<<<<< SEARCH\n=======\nexport const x = 1;\n>>>>>>> REPLACE`,
      whole,
    );
    const child = await agent().propose(context());
    expect(child.files).toEqual({
      'index.ts':
        "import { defineMemo } from 'automemo/contract';\nexport default defineMemo({ update() {}, retrieve() { return { text: 'whole', images: [] }; } });\n",
    });
    expect(asked[1]).toContain(
      'Your previous reply could not be used: file names must be plain relative paths ending in .ts',
    );
    expect(asked[1]).toContain('"../../outside.ts"');
  });

  it('repairs a child shown as its edits to the parent, with its numbered lines where it failed, by a one-line block', async () => {
    const childText = parent.replace(
      '  return lines.slice(0, config.topK);',
      '  const n: string = config.topK;\n  return lines.slice(0, n);',
    );
    const failure = "1 type error:\n4:9 Type 'number' is not assignable to type 'string'.";
    const report = (located: boolean) =>
      ({
        program: 'index.ts',
        passed: false,
        checks: [
          { name: 'imports', ok: true, message: 'bundled 1 program file' },
          located
            ? { name: 'interface', ok: false, message: failure, location: 'index.ts:4:9' }
            : { name: 'retrieve', ok: false, message: 'retrieve() returned no text' },
        ],
        failure: located ? { check: 'interface', detail: failure } : { check: 'retrieve', detail: 'no text' },
      }) as unknown as QuickExamReport;
    const asked = replies(
      block('  const n: string = config.topK;', '  const n: number = config.topK;'),
      block('  const n: string = config.topK;', '  const n: number = config.topK;'),
    );
    const ctx = context();
    const child = { files: { 'index.ts': childText }, description: 'Count lines.', edits: [] };
    const fixed = await agent().repair(child, report(true), ctx, 1);
    expect(fixed?.files['index.ts']).toBe(childText.replace('const n: string', 'const n: number'));
    const [local] = asked as [string];
    expect(purposeOf({ messages: [{ content: local }] })).toBe('repair');
    const edits =
      '// file: index.ts\n<<<<<<< SEARCH\nfunction rank(lines: string[]): string[] {\n  return lines.slice(0, config.topK);\n}\n=======\nfunction rank(lines: string[]): string[] {\n  const n: string = config.topK;\n  return lines.slice(0, n);\n}\n>>>>>>> REPLACE';
    // The report locates the failure: the context the child's own call started with, the child as its edits and
    // the declaration holding the failing line, numbered; the parent is left out.
    expect(local).not.toContain('file by file:');
    expect(local.startsWith(`${sharedContext(ctx)}\n\nTask: a child of a program failed quick examination`)).toBe(true);
    expect(local).toContain(
      `The program (seed-a, mean validation score 0.500 over 1 evaluations) is not shown here; the child is that program with these edits:\n${edits}`,
    );
    expect(local).toContain(
      'index.ts:\n  3 | function rank(lines: string[]): string[] {\n> 4 |   const n: string = config.topK;\n  5 |   return lines.slice(0, n);\n  6 | }\n',
    );
    // A failure the report does not locate: the parent whole, as the child's call showed it, and the edits.
    await agent().repair(child, report(false), ctx, 1);
    const whole = asked[1] as string;
    expect(whole).toContain(
      `The program (seed-a, mean validation score 0.500 over 1 evaluations), file by file:\n\`\`\`ts\n// file: index.ts\n${parent}\`\`\``,
    );
    expect(whole).toContain(`The child is the program above with these edits:\n${edits}`);
    expect(whole).not.toContain('is not shown here');
  });
});
