// What the model meta agent tells a model, read off the requests the local server receives: the reward rule, the
// data schema, the helpers' signatures and the sandbox's semantics; one cacheable prefix for every analysis of a
// step; "what to protect" for a cluster without failures; per-cluster numbers in the synthesis; what was tried
// from the parent (so a second child gets a different prompt); images as image parts; cached tokens priced apart.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EvaluationResult, TaskRecord } from '../../../../engine/evaluate/evaluate.ts';
import { resolveModels } from '../../../../engine/llm/models.ts';
import { renderSteps } from '../../../../engine/meta/evidence.ts';
import { ModelMetaAgent } from '../../../../engine/meta/model/agent.ts';
import type { ModelCall, ParentContext } from '../../../../engine/meta/types.ts';
import { OpenAITestServer } from '../../../support/openai-server.ts';
import { purposeOf } from '../../../support/recorded-session.ts';

let server: OpenAITestServer;
const work = mkdtempSync(join(tmpdir(), 'meta-prompts-'));
let png: string;
beforeAll(async () => {
  server = await OpenAITestServer.start();
  png = join(work, 'shot.png');
  writeFileSync(png, await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).png().toBuffer());
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const analysis = JSON.stringify({ relevance: [], weaknesses: ['w'], suggestions: [{ priority: 1, change: 'c' }] });
const synthesis = JSON.stringify({ summary: 's', changes: [{ change: 'c' }] });
const program = "```ts\n// file: index.ts\nimport { defineMemo } from 'automemo/contract';\nexport default defineMemo({ update() {}, retrieve() { return { text: 'x', images: [] }; } });\n```";
beforeEach(() => {
  server.onChat = (body) => {
    const purpose = purposeOf(body);
    if (purpose === 'analysis') return { content: analysis, usage: { prompt_tokens: 1000, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 800 } } };
    if (purpose === 'synthesis') return { content: synthesis };
    return { content: program };
  };
});

const SCENARIOS = ['multi-hop', 'single-hop', 'temporal'];
function context(extra: Partial<ParentContext> = {}): ParentContext {
  // multi-hop fails everything, single-hop half, temporal nothing.
  const tasks = Array.from({ length: 12 }, (_, i) => {
    const scenario = SCENARIOS[i % 3] as string;
    const reward = scenario === 'temporal' ? 1 : scenario === 'multi-hop' ? 0 : i % 2;
    return { taskId: `t${i}`, world: 'w', scenario, reward, success: reward === 1, answer: `answer of t${i}`, metrics: {}, payloadChars: 0, payloadImages: 0, truncated: false, retrieveMs: 0, agentMs: 0, cached: false } as TaskRecord;
  });
  return {
    node: 'seed-a',
    files: { 'index.ts': `${program.split('\n').slice(2, -1).join('\n')}\n// ${'a long program '.repeat(400)}\n` },
    q: 0.5,
    evaluations: 1,
    evaluation: { score: 0.5, tasks } as unknown as EvaluationResult,
    payloads: new Map(tasks.map((t) => [t.taskId, `memory of ${t.taskId}`])),
    trajectories: new Map(tasks.map((t) => [t.taskId, renderSteps([{ action: 'ocr [0,0,999,999]', observation: `READ ${'x'.repeat(1000)} END-${t.taskId}` }])])),
    env: { name: 'qa', mode: 'offline', reward: 'evidence recall', budget: { maxChars: 2000, maxImages: 0 }, agentId: 'checker', deterministic: true, data: {} },
    explain: (id) => `gold of ${id}`,
    envDescription: 'questions about two friends',
    guide: { reward: 'RULE: a turn is covered when 70% of its content words appear', schema: 'SCHEMA: meta.turns has ids', reader: 'READER: no agent', agentAnswers: false },
    roles: 'meta (you): online; memo: offline',
    step: 1,
    seed: 0,
    ...extra,
  };
}

const models = (env: Record<string, string> = {}) => resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1', ...env }).meta as never;
const userText = (body: any): string => {
  const c = body.messages.at(-1).content;
  return typeof c === 'string' ? c : c[0].text;
};
const since = (n: number) => server.chatRequests().slice(n);
function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

describe('the model meta agent\'s prompts', () => {
  it('carry the reward rule, the schema, the reader, the roles, the helpers\' signatures and the sandbox\'s semantics', async () => {
    const n = server.chatRequests().length;
    await new ModelMetaAgent(models(), 'metadata').propose(context());
    const prompts = since(n).map(userText);
    expect(prompts.length).toBe(5);
    for (const p of prompts) {
      expect(p).toContain('RULE: a turn is covered');
      expect(p).toContain('SCHEMA: meta.turns has ids');
      expect(p).toContain('READER: no agent');
      expect(p).toContain('meta (you): online; memo: offline');
      // Generated from the helpers' declarations: signatures with types, and their docs.
      expect(p).toMatch(/export declare class Bm25Index[\s\S]*search\(query: string \| string\[\], k: number/);
      expect(p).toContain('export declare function mmr<T>(candidates: readonly MmrCandidate<T>[], k: number');
      expect(p).toContain('// automemo/lib/tokenize');
      expect(p).toContain('Module-level state');
      expect(p).toContain('ctx.now() is the episode\'s own time');
      expect(p).toContain('Only index.ts and the files it imports');
      expect(p).toContain('snapshot()/restore() are used only when a finished memory is exported');
    }
  });

  it('share one prefix across a step\'s analyses (at least 80% of the shortest), the part that differs last', async () => {
    const n = server.chatRequests().length;
    await new ModelMetaAgent(models(), 'metadata').propose(context());
    const analyses = since(n).filter((b) => purposeOf(b) === 'analysis').map(userText);
    expect(analyses).toHaveLength(3);
    const shortest = Math.min(...analyses.map((a) => a.length));
    const shared = Math.min(commonPrefix(analyses[0] as string, analyses[1] as string), commonPrefix(analyses[1] as string, analyses[2] as string));
    expect(shared / shortest).toBeGreaterThanOrEqual(0.8);
    // The synthesis and the generation start the same way: one cache entry serves the whole step.
    const rest = since(n).filter((b) => purposeOf(b) !== 'analysis').map(userText);
    const task = (analyses[0] as string).lastIndexOf('\n\nTask:');
    expect(task).toBeGreaterThan(0.8 * shortest);
    for (const p of rest) expect(commonPrefix(p, analyses[0] as string)).toBeGreaterThanOrEqual(task);
  });

  it('ask what to protect of a cluster without failures, and show the synthesis every cluster\'s count and mean', async () => {
    const n = server.chatRequests().length;
    await new ModelMetaAgent(models(), 'metadata').propose(context());
    const sent = since(n);
    const byCluster = Object.fromEntries(sent.filter((b) => purposeOf(b) === 'analysis').map((b) => [/one cluster of tasks \("([^"]+)"/.exec(userText(b))?.[1], userText(b)]));
    expect(byCluster.temporal).toContain('what the next version must protect');
    expect(byCluster['multi-hop']).not.toContain('what the next version must protect');
    expect(byCluster['multi-hop']).toContain('explain the failures');
    const synth = userText(sent.find((b) => purposeOf(b) === 'synthesis'));
    expect(synth).toContain('### multi-hop (4 tasks, mean reward 0.000)');
    expect(synth).toContain('### temporal (4 tasks, mean reward 1.000)');
  });

  it('show an answer only where an agent answered, and a decisive tool result whole', async () => {
    const n = server.chatRequests().length;
    await new ModelMetaAgent(models(), 'metadata').propose(context());
    const a = since(n).filter((b) => purposeOf(b) === 'analysis').map(userText).join('\n');
    expect(a).not.toContain("Agent's answer");
    expect(a).toMatch(/READ x{1000} END-t\d+/);
    await new ModelMetaAgent(models(), 'metadata').propose(context({ guide: { ...context().guide!, agentAnswers: true } }));
    expect(since(n).map(userText).join('\n')).toContain("Agent's answer: answer of t");
  });

  it('give a second child of the same parent a different prompt: what was tried, and the best programs elsewhere', async () => {
    const agent = new ModelMetaAgent(models(), 'metadata');
    const n = server.chatRequests().length;
    await agent.propose(context());
    const first = since(n).filter((b) => purposeOf(b) === 'generation').map(userText);
    const m = server.chatRequests().length;
    await agent.propose(
      context({
        tried: [
          { node: 'n3', change: 'BM25 over whole turns', delta: -0.04 },
          { node: 'step 4', change: '(never evaluated)', failed: 'interface: retrieve returns no text' },
        ],
        inspirations: [{ node: 'n7', q: 0.91, evaluations: 2, change: 'neighbour turns around each hit' }],
      }),
    );
    const second = since(m).filter((b) => purposeOf(b) === 'generation').map(userText);
    expect(second[0]).not.toBe(first[0]);
    expect(second[0]).toContain('Already tried from this program');
    expect(second[0]).toContain('- n3: BM25 over whole turns → -0.040');
    expect(second[0]).toContain('- step 4: failed before evaluation: interface: retrieve returns no text');
    expect(second[0]).toContain('- n7 (mean validation 0.910 over 2 evaluations): neighbour turns around each hit');
    const synth = since(m).find((b) => purposeOf(b) === 'synthesis');
    expect(userText(synth)).toContain('Already tried from this program');
  });

  it('attach evidence images as image parts after the text, within 4 per episode and 2 of memory', async () => {
    const images = new Map([
      ['t9', { episode: [png, png, png, png], payload: [png, png] }],
      ['t6', { episode: [png], payload: [] }],
    ]);
    const n = server.chatRequests().length;
    await new ModelMetaAgent(models(), 'metadata').propose(context({ images }));
    const multi = since(n).find((b) => purposeOf(b) === 'analysis' && /"multi-hop"/.test(userText(b)));
    const parts = multi.messages.at(-1).content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(Array.isArray(parts)).toBe(true);
    expect(parts[0]?.type).toBe('text');
    const shown = parts.filter((p) => p.type === 'image_url');
    expect(shown).toHaveLength(7);
    expect(shown.every((p) => p.image_url?.url.startsWith('data:image/png;base64,'))).toBe(true);
    const labels = parts.filter((p) => p.type === 'text').slice(1).map((p) => p.text);
    expect(labels.filter((l) => l?.startsWith('Image: task t9: episode'))).toHaveLength(4);
    expect(labels.filter((l) => l?.startsWith('Image: task t9: memory'))).toHaveLength(2);
    expect(labels.filter((l) => l?.startsWith('Image: task t6: episode'))).toHaveLength(1);
    // A cluster with no images stays plain text.
    const temporal = since(n).find((b) => purposeOf(b) === 'analysis' && /"temporal"/.test(userText(b)));
    expect(typeof temporal.messages.at(-1).content).toBe('string');
  });

  it('record cached prompt tokens and price them at their own rate', async () => {
    const calls: ModelCall[] = [];
    const priced = models({ AUTOMEMO_META_USD_PER_M_INPUT: '10', AUTOMEMO_META_USD_PER_M_CACHED: '1', AUTOMEMO_META_USD_PER_M_OUTPUT: '0' });
    await new ModelMetaAgent(priced, 'metadata').propose(context({ onModelCall: (c) => calls.push(c) }));
    const a = calls.find((c) => c.purpose === 'analysis');
    expect(a).toMatchObject({ promptTokens: 1000, cachedTokens: 800 });
    // 200 uncached at $10/M and 800 cached at $1/M.
    expect(a?.usd).toBeCloseTo((200 * 10 + 800 * 1) / 1e6, 12);
    const s = calls.find((c) => c.purpose === 'synthesis');
    expect(s?.cachedTokens).toBeUndefined();
  });
});
