// No prompt names code it does not contain: every request the model meta agent builds (a child's one call, the
// analysis and the generation, read off the local server; the repair in both forms and the initialization, from their
// builders) shows each child it
// names as its edits, or says its code is not shown; one it invites to build on is always shown; the programs
// elsewhere are named only as ideas whose code is not shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModels } from '../../../../foundation/llm/models.ts';
import { ModelMetaAgent } from '../../../../engine/meta/model/agent.ts';
import { renderEdits } from '../../../../engine/meta/model/edit-format.ts';
import { editsBetween } from '../../../../engine/meta/model/edits-between.ts';
import { EDITS_CHARS, renderTried } from '../../../../engine/meta/model/render.ts';
import { initializationRequest, repairRequest } from '../../../../engine/meta/model/requests.ts';
import type { ModelParent, ProgramFiles, TriedChild } from '../../../../engine/meta/types.ts';
import type { QuickExamReport } from '../../../../sandbox/quick-exam.ts';
import { OpenAITestServer } from '../../../support/openai-server.ts';
import { parentContext, scoredTask } from '../../../support/parent-context.ts';
import { purposeOf, requestText } from '../../../support/recorded-session.ts';

let server: OpenAITestServer;
beforeAll(async () => {
  server = await OpenAITestServer.start();
  const analysis = JSON.stringify({ summary: 'Go on.', changes: [{ change: 'c' }] });
  const program =
    "```ts\n// file: index.ts\nimport { defineMemo } from 'automemo/contract';\nexport default defineMemo({ update() {}, retrieve() { return { text: 'y', images: [] }; } });\n```";
  server.onChat = (body) => {
    const purpose = purposeOf(body);
    if (purpose === 'program-analysis') return { content: analysis };
    return { content: purpose === 'proposal' ? `${analysis}\n\n${program}` : program };
  };
});
afterAll(() => server.close());

const parentText =
  Array.from({ length: 40 }, (_, i) => `export const step${i} = ${i};`).join('\n') +
  "\nimport { defineMemo } from 'automemo/contract';\nexport default defineMemo({ update() {}, retrieve() { return { text: '', images: [] }; } });\n";
const parentFiles: ProgramFiles = { 'index.ts': parentText };
const variant = (line: number, text: string): ProgramFiles => ({
  'index.ts': parentText.replace(`export const step${line} = ${line};`, text),
});

const tried: TriedChild[] = [
  {
    node: 'n2',
    step: 2,
    edits: [],
    description: 'Step 3 doubled.',
    delta: 0.05,
    files: variant(3, 'export const step3 = 6;'),
  },
  {
    node: 'n4',
    step: 4,
    edits: [],
    description: 'Step 9 halved.',
    delta: -0.02,
    files: variant(9, 'export const step9 = 4.5;'),
  },
  // Better, but its edits are too long to show: never offered to build on.
  {
    node: 'n6',
    step: 6,
    edits: [],
    description: 'A giant table.',
    delta: 0.09,
    files: variant(20, `export const step20 = '${'t'.repeat(EDITS_CHARS)}';`),
  },
  // Better, but its program could not be read: named, never offered.
  { node: 'n8', step: 8, edits: [], description: 'Lost folder.', delta: 0.07 },
  { node: 'step 9', step: 9, edits: [], failure: { check: 'interface', detail: 'no default export' } },
];

/** The sentence that invites building on children: the ones it names, or (worded generally) every better one. */
function invited(prompt: string, t: TriedChild): boolean {
  if (t.failure || (t.delta ?? 0) <= 0 || !prompt.includes('may be built on')) return false;
  const named = /([^.\n]*) scored better than this program and may be built on/.exec(prompt)?.[1];
  return named === undefined ? true : new RegExp(`\\b${t.node}\\b`).test(named);
}

/** Asserts the prompt holds the code of every child it names, unless it says that code is not shown. */
function holdsWhatItNames(prompt: string, what: string): void {
  for (const t of tried) {
    if (!prompt.includes(`- ${t.node}:`)) continue;
    const shown = t.files !== undefined && prompt.includes(renderEdits(editsBetween(parentFiles, t.files)));
    if (invited(prompt, t))
      expect(shown, `${what}: invites building on ${t.node}, whose code it does not show`).toBe(true);
    if (!t.failure)
      expect(
        shown ||
          (prompt.includes(`- ${t.node}: ${t.description} →`) &&
            new RegExp(`- ${t.node}: [^\\n]*\\(its code is not shown\\)`).test(prompt)),
        `${what}: names ${t.node} without its code or saying so`,
      ).toBe(true);
  }
  if (prompt.includes('The best programs elsewhere'))
    expect(prompt, what).toContain('The best programs elsewhere in the search, for ideas (their code is not shown)');
}

const ctx = (extra: Partial<ModelParent> = {}): ModelParent =>
  parentContext([scoredTask('a', 'all', 0), scoredTask('b', 'all', 1)], {
    files: parentFiles,
    tried,
    inspirations: [{ node: 'n1', q: 0.8, evaluations: 3, edits: [], description: 'dated lines' }],
    ...extra,
  });

describe("the model meta agent's prompts", () => {
  it('name no code they do not contain: a child to build on is shown as its edits, the others shown or said not to be', async () => {
    const agent = (analysis: 'child' | 'program') =>
      new ModelMetaAgent(
        resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1' }).meta as never,
        {
          clustering: 'metadata',
          analysis,
        },
      );
    const n = server.chatRequests().length;
    await agent('child').propose(ctx());
    await agent('program').propose(ctx({ step: 2 }));
    const sent = server.chatRequests().slice(n);
    expect(sent.map(purposeOf)).toEqual(['proposal', 'program-analysis', 'generation']);
    const report = (location?: string) =>
      ({
        program: 'index.ts',
        passed: false,
        checks: [{ name: 'interface', ok: false, message: 'no default export', ...(location ? { location } : {}) }],
        failure: { check: 'interface', detail: 'no default export' },
      }) as unknown as QuickExamReport;
    const child = variant(1, 'export const step1 = 2;');
    const prompts: [string, string][] = [
      ['proposal', requestText(sent[0])],
      ['analysis', requestText(sent[1])],
      ['generation', requestText(sent[2])],
      ['repair', repairRequest(ctx(), child, report())],
      ['local repair', repairRequest(ctx(), child, report('index.ts:2:1'))],
      ['initialization', initializationRequest(ctx({ node: 'root' }), renderTried(tried, parentFiles, 0.5))],
    ];
    for (const [what, prompt] of prompts) holdsWhatItNames(prompt, what);
    // Only n2 is offered; n6 and n8 are better but named without code, and say so.
    for (const g of [prompts[0][1], prompts[2][1]]) {
      expect(g).toContain('n2 scored better than this program and may be built on');
      expect(g).toMatch(/- n6: A giant table\. → \+0\.090 [^\n]*, better \(its code is not shown\)/);
      expect(g).toMatch(/- n8: Lost folder\. → \+0\.070 [^\n]*, better \(its code is not shown\)/);
      expect(g).toContain('The best programs elsewhere in the search, for ideas (their code is not shown)');
    }
  });

  it('would have caught the prompt that asked to extend a sibling from its one-line summary', () => {
    // The recorded session's generation prompt (call 011), in the words it used: a better child named, no code.
    const old = `Already tried from this program:\n- n2: Step 3 doubled. → +0.050 against this program on the same tasks (this program: 0.500), better\nDo not write any of them again. A child that scored better than this program may be built on: extend its direction with a change of your own, or diverge from it; say which in your summary.`;
    expect(() => holdsWhatItNames(old, 'old generation')).toThrow(/invites building on n2/);
  });
});
