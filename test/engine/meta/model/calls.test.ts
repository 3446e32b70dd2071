// How the model meta agent spends its calls, against the local server: identical requests of steps in flight are
// asked once (the reuse is reported for the journal); a step writing a child of a parent another step in flight is
// writing from is told that sibling's direction, so their prompts and children differ; a reply cut at max_tokens is
// asked again with twice the limit, and per-purpose limits are options; a request the transport sent again is
// journaled with why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModels } from '../../../../foundation/llm/models.ts';
import { ModelMetaAgent } from '../../../../engine/meta/model/agent.ts';
import type { ModelCall, ModelParent } from '../../../../engine/meta/types.ts';
import { OpenAITestServer } from '../../../support/openai-server.ts';
import { parentContext, scoredTask } from '../../../support/parent-context.ts';
import { purposeOf } from '../../../support/recorded-session.ts';

let server: OpenAITestServer;
beforeAll(async () => {
  server = await OpenAITestServer.start();
});
afterAll(() => server.close());

const program = (n: number) =>
  `\`\`\`ts\n// file: index.ts\nimport { defineMemo } from 'automemo/contract';\nexport default defineMemo({ update() {}, retrieve() { return { text: 'v${n}', images: [] }; } });\n\`\`\``;

function context(step: number, calls: ModelCall[]): ModelParent {
  const tasks = ['a', 'b', 'c', 'd'].map((id, i) => scoredTask(id, i % 2 ? 'dates' : 'names', i < 2 ? 1 : 0));
  return parentContext(tasks, { step, onModelCall: (c) => calls.push(c) });
}

const models = () =>
  resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1' }).meta as never;

/** Replies by purpose after `delayMs`; each synthesis and program-analysis summary and each program is numbered. */
function scripted(delayMs: number) {
  let n = 0;
  server.onChat = (body) => {
    const purpose = purposeOf(body);
    n++;
    if (purpose === 'analysis')
      return {
        content: JSON.stringify({ relevance: [], weaknesses: ['w'], suggestions: [{ priority: 1, change: 'c' }] }),
        delayMs,
      };
    if (purpose === 'synthesis' || purpose === 'program-analysis')
      return {
        content: JSON.stringify({ summary: `Direction number ${n}.`, changes: [{ change: `change ${n}` }] }),
        delayMs,
      };
    return { content: program(n), delayMs };
  };
}

const text = (b: any) => String(b.messages.at(-1).content);

describe("the model meta agent's calls", () => {
  it('asks identical analyses of two steps in flight once; the later step ranks its way past the undecided earlier one', async () => {
    scripted(300);
    const agent = new ModelMetaAgent(models(), { clustering: 'metadata', analysis: 'cluster' });
    const before = server.chatRequests().length;
    const first: ModelCall[] = [];
    const second: ModelCall[] = [];
    const [a, b] = await Promise.all([agent.propose(context(1, first)), agent.propose(context(2, second))]);
    const sent = server.chatRequests().slice(before);
    // Two clusters analysed once each; a synthesis and a generation per step.
    expect(sent.map(purposeOf).sort()).toEqual([
      'analysis',
      'analysis',
      'generation',
      'generation',
      'synthesis',
      'synthesis',
    ]);
    expect(second.filter((c) => c.reused).map((c) => [c.purpose, c.reused])).toEqual([
      ['analysis', { step: 1, node: 'seed-a', purpose: 'analysis' }],
      ['analysis', { step: 1, node: 'seed-a', purpose: 'analysis' }],
    ]);
    expect(second.filter((c) => c.reused).every((c) => c.promptTokens === 0 && c.completionTokens === 0)).toBe(true);
    expect(first.some((c) => c.reused)).toBe(false);
    // Both syntheses were asked while neither step had a direction: the later one takes its second-ranked.
    const [s1, s2] = sent.filter((x) => purposeOf(x) === 'synthesis').map(text);
    expect(s1).not.toContain('in flight');
    expect(s2).toContain(
      'Another step in flight is writing a child of this program at the same time and has not chosen its direction yet. So that the children differ, carry out the direction you rank 2nd most promising',
    );
    expect(a.description).not.toBe(b.description);
    expect(a.files['index.ts']).not.toBe(b.files['index.ts']);
  });

  it('tells a later step of the same parent the direction an earlier step in flight took', async () => {
    scripted(100);
    let decided: () => void = () => undefined;
    const firstGeneration = new Promise<void>((r) => {
      decided = r;
    });
    const handler = server.onChat;
    server.onChat = (body) => {
      if (purposeOf(body) === 'generation') decided();
      return handler?.(body);
    };
    const agent = new ModelMetaAgent(models(), { clustering: 'metadata', analysis: 'program' });
    const before = server.chatRequests().length;
    const one = agent.propose(context(1, []));
    // Step 1 has its proposal (it is generating) and is still in flight when step 2 starts.
    await firstGeneration;
    const [a] = await Promise.all([one, agent.propose(context(2, []))]);
    const analyses = server
      .chatRequests()
      .slice(before)
      .filter((x) => purposeOf(x) === 'program-analysis')
      .map(text);
    expect(analyses).toHaveLength(2);
    expect(analyses[0]).not.toContain('in flight');
    expect(analyses[1]).toContain(
      `- step 1 (being written now by a step in flight, not evaluated yet): ${a.description}`,
    );
    expect(analyses[1]).not.toContain('has not chosen');
  });

  it('asks an answered request of the run again only when it differs', async () => {
    scripted(0);
    const agent = new ModelMetaAgent(models(), { clustering: 'metadata', analysis: 'cluster' });
    await agent.propose(context(1, []));
    const calls: ModelCall[] = [];
    const before = server.chatRequests().length;
    // Step 3 reads the same evidence after step 1's child was written: the analyses are the same requests.
    await agent.propose({
      ...context(3, calls),
      tried: [
        {
          node: 'n1',
          step: 1,
          edits: [{ kind: 'model', key: 'program', from: '', to: 'Direction one.' }],
          description: 'Direction one.',
          delta: 0.1,
        },
      ],
    });
    expect(server.chatRequests().slice(before).map(purposeOf)).toEqual(['synthesis', 'generation']);
    expect(calls.filter((c) => c.reused).map((c) => c.reused?.step)).toEqual([1, 1]);
  });

  it('asks a reply cut at max_tokens again with twice the limit, with the per-purpose limits given', async () => {
    const limits: number[] = [];
    let cut = true;
    server.onChat = (body) => {
      const purpose = purposeOf(body);
      if (purpose === 'program-analysis')
        return { content: JSON.stringify({ summary: 'Do it.', changes: [{ change: 'c' }] }) };
      limits.push(body.max_tokens);
      if (cut) {
        cut = false;
        return { content: '```ts\n// file: index.ts\nimport { defineMemo } from', finishReason: 'length' };
      }
      return { content: program(1) };
    };
    const calls: ModelCall[] = [];
    const proposal = await new ModelMetaAgent(models(), {
      clustering: 'metadata',
      analysis: 'program',
      maxTokens: { generation: 3000 },
    }).propose(context(1, calls));
    expect(limits).toEqual([3000, 6000]);
    expect(proposal.files['index.ts']).toContain("text: 'v1'");
    expect(calls.filter((c) => c.purpose.startsWith('generation')).map((c) => [c.purpose, c.cut ?? false])).toEqual([
      ['generation', true],
      ['generation (cut at 3000 tokens, asked again with 6000)', false],
    ]);
  });

  it('asks again, saying so, when a program is still cut at twice the limit', async () => {
    const prompts: string[] = [];
    server.onChat = (body) => {
      if (purposeOf(body) === 'program-analysis')
        return { content: JSON.stringify({ summary: 'Do it.', changes: [{ change: 'c' }] }) };
      prompts.push(text(body));
      return prompts.length <= 2
        ? { content: '```ts\n// file: index.ts\nexport const', finishReason: 'length' }
        : { content: program(2) };
    };
    const proposal = await new ModelMetaAgent(models(), {
      clustering: 'metadata',
      analysis: 'program',
      maxTokens: { generation: 1000 },
    }).propose(context(1, []));
    expect(proposal.files['index.ts']).toContain("text: 'v2'");
    expect(prompts).toHaveLength(3);
    expect(prompts[2]).toContain(
      'the reply was cut off at 2000 tokens before it ended; send only your edits as SEARCH/REPLACE blocks',
    );
  });

  it('keeps a cut reply and asks for a shorter one when the endpoint refuses twice the limit', async () => {
    const prompts: { text: string; max: number }[] = [];
    server.onChat = (body) => {
      if (purposeOf(body) === 'program-analysis')
        return { content: JSON.stringify({ summary: 'Do it.', changes: [{ change: 'c' }] }) };
      prompts.push({ text: text(body), max: body.max_tokens });
      if (body.max_tokens > 1000) return { status: 400 };
      return prompts.length === 1
        ? { content: '```ts\n// file: index.ts\nexport const', finishReason: 'length' }
        : { content: program(3) };
    };
    const calls: ModelCall[] = [];
    const proposal = await new ModelMetaAgent(models(), {
      clustering: 'metadata',
      analysis: 'program',
      maxTokens: { generation: 1000 },
    }).propose(context(1, calls));
    expect(proposal.files['index.ts']).toContain("text: 'v3'");
    expect(prompts.map((p) => p.max)).toEqual([1000, 2000, 1000]);
    expect(prompts[2]?.text).toContain('the reply was cut off at 1000 tokens before it ended');
    expect(calls.filter((c) => c.purpose.startsWith('generation')).map((c) => c.ok)).toEqual([true, false, true]);
  });

  it("journals a request the transport sent again, with why, in the call's own event", async () => {
    let first = true;
    server.onChat = (body) => {
      if (purposeOf(body) === 'program-analysis' && first) {
        first = false;
        return { status: 429 };
      }
      return purposeOf(body) === 'program-analysis'
        ? { content: JSON.stringify({ summary: 'Do it.', changes: [{ change: 'c' }] }) }
        : { content: program(4) };
    };
    const calls: ModelCall[] = [];
    await new ModelMetaAgent(models(), { clustering: 'metadata', analysis: 'program' }).propose(context(1, calls));
    expect(calls.map((c) => [c.purpose, c.ok, c.retries])).toEqual([
      ['analysis', true, ['answered 429']],
      ['generation', true, undefined],
    ]);
  });

  it('refuses token limits that are not a positive count', () => {
    expect(() => new ModelMetaAgent(models(), { maxTokens: { generation: -5 } })).toThrow();
    expect(() => new ModelMetaAgent(models(), { maxTokens: { poem: 100 } as never })).toThrow();
  });
});
