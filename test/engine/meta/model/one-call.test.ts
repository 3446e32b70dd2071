// A child in one call, against the local server through the real openai SDK: the analysis of every cluster, the
// proposal and its search/replace edits come in one reply to one request (journaled as one `proposal` call), and the
// child is the parent with those edits; a reply whose edits part is missing or does not apply is asked once for its
// edits alone, told what was wrong, and fails after that; the two-call flow stays an option.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModels } from '../../../../foundation/llm/models.ts';
import { ModelMetaAgent } from '../../../../engine/meta/model/agent.ts';
import type { AnalysisMode } from '../../../../engine/meta/model/analysis.ts';
import { MetaAgentError, type ModelCall, type ModelParent } from '../../../../engine/meta/types.ts';
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
  'export default defineMemo({',
  '  update() {},',
  '  retrieve() { return { text: String(config.topK), images: [] }; },',
  '});',
  '',
].join('\n');
const block = (search: string, replace: string) =>
  `// file: index.ts\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;
const widen = block('export const config = { topK: 8, window: 1 };', 'export const config = { topK: 12, window: 2 };');
const analysis = JSON.stringify({
  clusters: [
    {
      cluster: 'dates',
      relevance: [{ taskId: 'b', label: 'missing', why: 'the date was cut' }],
      weaknesses: ['too few lines'],
      suggestions: [{ priority: 1, change: 'more lines' }],
    },
    { cluster: 'names', relevance: [], weaknesses: ['none'], suggestions: [] },
  ],
  summary: 'Widen the window and show more lines.',
  changes: [{ change: 'topK 12, window 2', why: 'dates are cut', clusters: ['dates'] }],
});

let step = 1;
function context(calls: ModelCall[] = []): ModelParent {
  const tasks = ['a', 'b', 'c', 'd'].map((id, i) => scoredTask(id, i % 2 ? 'dates' : 'names', i < 2 ? 1 : 0));
  return parentContext(tasks, {
    files: { 'index.ts': parent },
    payloads: new Map(tasks.map((t) => [t.taskId, `memory of ${t.taskId}`])),
    step: step++,
    onModelCall: (c) => calls.push(c),
  });
}
const agent = (analysis?: AnalysisMode) =>
  new ModelMetaAgent(
    resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1' }).meta as never,
    {
      clustering: 'metadata',
      ...(analysis ? { analysis } : {}),
    },
  );

/** Answers each request with the next of `replies`, keeping what was asked. */
function replies(...list: string[]): { purpose: string | undefined; text: string }[] {
  const asked: { purpose: string | undefined; text: string }[] = [];
  server.onChat = (body) => {
    asked.push({ purpose: purposeOf(body), text: requestText(body) });
    return { content: list.shift() ?? 'nothing left' };
  };
  return asked;
}

describe("a child's one call", () => {
  it('reads every cluster, proposes and writes the edits in one reply to one request, journaled as one proposal call', async () => {
    const asked = replies(`${analysis}\n\nThe window first.\n\n${widen}`);
    const calls: ModelCall[] = [];
    const child = await agent().propose(context(calls));
    expect(child.files['index.ts']).toBe(parent.replace('topK: 8, window: 1', 'topK: 12, window: 2'));
    expect(child.description).toBe('Widen the window and show more lines.');
    expect(child.feedback?.clusters.map((c) => [c.scenario, c.summary])).toEqual([
      ['dates', 'too few lines'],
      ['names', 'none'],
    ]);
    expect(child.feedback?.proposal).toBe(
      'Widen the window and show more lines.\n1. topK 12, window 2 (dates are cut)',
    );
    expect(calls.map((c) => [c.purpose, c.ok])).toEqual([['proposal', true]]);
    expect(asked.map((a) => a.purpose)).toEqual(['proposal']);
    // The request: stable parts first (the context, then what to read and how to write the child, the same for
    // every parent), then the program, its evidence, and what only this request asks.
    const text = asked[0]?.text ?? '';
    const order = [
      'Environment:',
      'The memo-program contract',
      'automemo/lib, generated from its declarations',
      'Task: below are a program and the evidence',
      'label the retrieved memory of each task shown',
      'Reply in two parts',
      'Write your changes as search/replace blocks.',
      'The program (seed-a',
      'Evidence from the program',
      '## Cluster "dates"',
      'Reply now, as the task above says',
    ];
    const at = order.map((m) => text.indexOf(m));
    expect(at.every((x, i) => x >= 0 && (i === 0 || x > (at[i - 1] as number)))).toBe(true);
  });

  it('takes the analysis in a fence and the edits after it', async () => {
    replies(`Here is my reading.\n\`\`\`json\n${analysis}\n\`\`\`\n${widen}`);
    const child = await agent().propose(context());
    expect(child.files['index.ts']).toContain('topK: 12, window: 2');
  });

  it('asks a reply whose edits part is missing for its edits alone, once, keeping its analysis', async () => {
    const calls: ModelCall[] = [];
    const asked = replies(analysis, `Sorry, here they are.\n${widen}`);
    const child = await agent().propose(context(calls));
    expect(child.files['index.ts']).toContain('topK: 12, window: 2');
    expect(child.description).toBe('Widen the window and show more lines.');
    expect(calls.map((c) => c.purpose)).toEqual(['proposal', 'proposal (retry 1)']);
    const retry = asked[1]?.text ?? '';
    // The retry is the same request with a note naming what was wrong: its prefix is the first request whole.
    expect(retry.startsWith(asked[0]?.text ?? '-')).toBe(true);
    expect(retry).toContain(
      "Your reply's first part (the analysis and the proposal) was read; do not send it again. Its second part, the edits, could not be used: no edits in the reply",
    );
    expect(retry).toContain('Reply with only your changes to the program above, as SEARCH/REPLACE blocks');
  });

  it('names an edit that does not match back once with the nearest lines, and fails when the edits are still broken', async () => {
    const asked = replies(
      `${analysis}\n${block('export const config = { topK: 9 };', 'export const config = { topK: 12 };')}`,
      widen,
    );
    const fixed = await agent().propose(context());
    expect(fixed.files['index.ts']).toContain('topK: 12, window: 2');
    expect(asked[1]?.text).toContain('- edit 1 (index.ts): its SEARCH lines are not in the file');
    expect(asked[1]?.text).toContain('export const config = { topK: 8, window: 1 };');

    const calls: ModelCall[] = [];
    const again = replies(`${analysis}\n\nno edits here`, 'still no edits', widen);
    const failed = agent().propose(context(calls));
    await expect(failed).rejects.toThrow(MetaAgentError);
    await expect(failed).rejects.toThrow(
      /its edits part still could not be used after one correction: no edits in the reply/,
    );
    expect(again).toHaveLength(2);
  });

  it('asks a reply whose analysis does not parse again whole', async () => {
    const asked = replies(`{"clusters": [], "summary": 5}\n${widen}`, `${analysis}\n${widen}`);
    const child = await agent().propose(context());
    expect(child.files['index.ts']).toContain('topK: 12, window: 2');
    expect(asked[1]?.text).toContain(
      'Your previous reply could not be used: its first part does not match the requested shape',
    );
  });

  it('keeps the two-call flow as an option: an analysis, then a generation', async () => {
    const calls: ModelCall[] = [];
    server.onChat = (body) => ({ content: purposeOf(body) === 'program-analysis' ? analysis : widen });
    const child = await agent('program').propose(context(calls));
    expect(child.files['index.ts']).toBe(parent.replace('topK: 8, window: 1', 'topK: 12, window: 2'));
    expect(calls.map((c) => c.purpose)).toEqual(['analysis', 'generation']);
    expect(child.feedback?.proposal).toBe(
      'Widen the window and show more lines.\n1. topK 12, window 2 (dates are cut)',
    );
  });
});
