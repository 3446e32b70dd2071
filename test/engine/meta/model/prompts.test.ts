// What the model meta agent tells a model, read off the requests the local server receives: the reward rule, the
// data schema, the contract, the helpers' signatures and the sandbox's semantics, in that order before the program
// and the evidence; one analysis call per program covering every cluster (the default), or one per cluster sharing
// all but their last lines; "what to protect" for a cluster without failures; per-cluster numbers in the synthesis;
// what was tried from the parent, each child as its edits, and which sibling may be built on; images as image parts;
// cached tokens priced apart.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EvaluationResult, TaskRecord } from '../../../../engine/evaluate/evaluate.ts';
import { resolveModels } from '../../../../foundation/llm/models.ts';
import { ModelMetaAgent } from '../../../../engine/meta/model/agent.ts';
import { renderEdits } from '../../../../engine/meta/model/edit-format.ts';
import { editsBetween } from '../../../../engine/meta/model/edits-between.ts';
import type { ModelCall, ModelParent } from '../../../../engine/meta/types.ts';
import { OpenAITestServer } from '../../../support/openai-server.ts';
import { purposeOf } from '../../../support/recorded-session.ts';

let server: OpenAITestServer;
const work = mkdtempSync(join(tmpdir(), 'meta-prompts-'));
let png: string;
beforeAll(async () => {
  server = await OpenAITestServer.start();
  png = join(work, 'shot.png');
  writeFileSync(
    png,
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
      .png()
      .toBuffer(),
  );
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const analysis = JSON.stringify({ relevance: [], weaknesses: ['w'], suggestions: [{ priority: 1, change: 'c' }] });
const synthesis = JSON.stringify({
  summary: 'Keep only the lines of the door asked about. Then sort them by date.',
  changes: [{ change: 'c' }],
});
const programAnalysis = JSON.stringify({
  clusters: ['multi-hop', 'single-hop', 'temporal'].map((cluster) => ({
    cluster,
    relevance: [],
    weaknesses: [`weak at ${cluster}`],
    suggestions: [{ priority: 1, change: `fix ${cluster}` }],
  })),
  summary: 'Keep only the lines of the door asked about. Then sort them by date.',
  changes: [{ change: 'filter by door', why: 'multi-hop misses it', clusters: ['multi-hop'] }],
});
const program =
  "```ts\n// file: index.ts\nimport { defineMemo } from 'automemo/contract';\nexport default defineMemo({ update() {}, retrieve() { return { text: 'x', images: [] }; } });\n```";
beforeEach(() => {
  server.onChat = (body) => {
    const purpose = purposeOf(body);
    const usage = { prompt_tokens: 1000, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 800 } };
    if (purpose === 'analysis') return { content: analysis, usage };
    if (purpose === 'program-analysis') return { content: programAnalysis, usage };
    if (purpose === 'synthesis') return { content: synthesis };
    return { content: program };
  };
});

const SCENARIOS = ['multi-hop', 'single-hop', 'temporal'];
let step = 1;
function context(extra: Partial<ModelParent> = {}): ModelParent {
  // multi-hop fails everything, single-hop half, temporal nothing.
  const tasks = Array.from({ length: 12 }, (_, i) => {
    const scenario = SCENARIOS[i % 3] as string;
    const reward = scenario === 'temporal' ? 1 : scenario === 'multi-hop' ? 0 : i % 2;
    return {
      taskId: `t${i}`,
      world: 'w',
      scenario,
      reward,
      success: reward === 1,
      answer: `answer of t${i}`,
      metrics: {},
      payloadChars: 0,
      payloadImages: 0,
      truncated: false,
      retrieveMs: 0,
      agentMs: 0,
      cached: false,
    } as TaskRecord;
  });
  return {
    node: 'seed-a',
    files: { 'index.ts': `${program.split('\n').slice(2, -1).join('\n')}\n// ${'a long program '.repeat(400)}\n` },
    q: 0.5,
    evaluations: 1,
    evaluation: { score: 0.5, tasks } as unknown as EvaluationResult,
    payloads: new Map(tasks.map((t) => [t.taskId, `memory of ${t.taskId}`])),
    trajectories: new Map(
      tasks.map((t) => [
        t.taskId,
        [{ action: 'ocr [0,0,999,999]', observation: `READ ${'x'.repeat(1000)} END-${t.taskId}` }],
      ]),
    ),
    env: {
      name: 'qa',
      mode: 'offline',
      reward: 'evidence recall',
      budget: { maxChars: 2000, maxImages: 0 },
      agentId: 'checker',
      deterministic: true,
      data: {},
    },
    explain: (id) => ({ gold: [`gold of ${id}`] }),
    envDescription: 'questions about two friends',
    guide: {
      reward: 'RULE: a turn is covered when 70% of its content words appear',
      schema: 'SCHEMA: meta.turns has ids',
      reader: 'READER: no agent',
      agentAnswers: false,
    },
    roles: 'meta (you): online; memo: offline',
    // Each call is another step, as in a search (the same step's prompts would be the same prompts).
    step: step++,
    ...extra,
  };
}

const models = (env: Record<string, string> = {}) =>
  resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1', ...env }).meta as never;
const perCluster = () => new ModelMetaAgent(models(), { clustering: 'metadata', analysis: 'cluster' });
const perProgram = () => new ModelMetaAgent(models(), { clustering: 'metadata', analysis: 'program' });
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

describe("the model meta agent's prompts", () => {
  it("carry the reward rule, the schema, the reader, the roles, the helpers' signatures and the sandbox's semantics", async () => {
    const n = server.chatRequests().length;
    await perProgram().propose(context());
    const prompts = since(n).map(userText);
    // One analysis of the whole program, one generation; both carry the contract, in the part every prompt shares.
    expect(since(n).map(purposeOf)).toEqual(['program-analysis', 'generation']);
    expect(
      prompts.map((p) => p.includes('The memo-program contract') && p.includes('export function defineMemo')),
    ).toEqual([true, true]);
    for (const p of prompts) {
      expect(p).toContain('RULE: a turn is covered');
      expect(p).toContain('SCHEMA: meta.turns has ids');
      expect(p).toContain('READER: no agent');
      expect(p).toContain('meta (you): online; memo: offline');
      // automemo/lib's index, generated from the helpers' declarations: every module, each function with its
      // parameters, each class with its members, every stage with its tunables.
      expect(p).toContain('class Bm25Index Members: size, has(), add(), remove(), idf(), search().');
      expect(p).toContain('mmr(candidates, k, lambda?)');
      expect(p).toContain('// automemo/lib/tokenize');
      expect(p).toContain('bm25Stage (search): BM25 over the units, k per query; k: int 40');
      expect(p).toContain('Module-level state');
      expect(p).toContain("ctx.now() is the episode's own time");
      expect(p).toContain('Only index.ts and the files it imports');
      expect(p).toContain('snapshot()/restore() are used only when a finished memory is exported');
    }
  });

  it("analyse every cluster in one call per program: each cluster's evidence and findings, the proposal and its summary", async () => {
    const n = server.chatRequests().length;
    const proposal = await perProgram().propose(context());
    const [a] = since(n)
      .filter((b) => purposeOf(b) === 'program-analysis')
      .map(userText);
    for (const s of SCENARIOS) expect(a).toContain(`## Cluster "${s}"`);
    expect(a).toContain('for a cluster with no failed task: what\nthe program does that these tasks depend on');
    expect(proposal.feedback?.clusters.map((c) => [c.scenario, c.tasks, c.summary])).toEqual([
      ['multi-hop', 4, 'weak at multi-hop'],
      ['single-hop', 4, 'weak at single-hop'],
      ['temporal', 4, 'weak at temporal'],
    ]);
    expect(proposal.feedback?.proposal).toBe(
      'Keep only the lines of the door asked about. Then sort them by date.\n1. filter by door (multi-hop misses it)',
    );
    // The description is the summary in whole sentences.
    expect(proposal.description).toBe('Keep only the lines of the door asked about. Then sort them by date.');
    const [g] = since(n)
      .filter((b) => purposeOf(b) === 'generation')
      .map(userText);
    expect(g).toContain('applying this proposal:\nKeep only the lines of the door asked about.');
  });

  it('per cluster: the analyses of a step share at least 90% of their characters as a prefix, the part that differs last', async () => {
    const n = server.chatRequests().length;
    await perCluster().propose(context());
    const analyses = since(n)
      .filter((b) => purposeOf(b) === 'analysis')
      .map(userText);
    expect(analyses).toHaveLength(3);
    const shortest = Math.min(...analyses.map((a) => a.length));
    const shared = Math.min(
      commonPrefix(analyses[0] as string, analyses[1] as string),
      commonPrefix(analyses[1] as string, analyses[2] as string),
    );
    expect(shared / shortest).toBeGreaterThanOrEqual(0.9);
    // Every cluster's evidence is in the shared part; the task naming the cluster comes after it.
    const task = (analyses[0] as string).lastIndexOf('\n\nTask:');
    expect(shared).toBeGreaterThanOrEqual(task);
    for (const s of SCENARIOS) expect((analyses[0] as string).slice(0, task)).toContain(`## Cluster "${s}"`);
    // The synthesis starts with the same whole prefix; the generation with the context and the program.
    const synth = userText(since(n).find((b) => purposeOf(b) === 'synthesis'));
    expect(commonPrefix(synth, analyses[0] as string)).toBeGreaterThanOrEqual(task);
    const gen = userText(since(n).find((b) => purposeOf(b) === 'generation'));
    expect(commonPrefix(gen, analyses[0] as string)).toBeGreaterThanOrEqual(
      (analyses[0] as string).indexOf("Evidence from the program's latest evaluation"),
    );
  });

  it("per cluster: ask what to protect of a cluster without failures, and show the synthesis every cluster's count and mean", async () => {
    const n = server.chatRequests().length;
    await perCluster().propose(context());
    const sent = since(n);
    const tail = (b: any) => userText(b).slice(userText(b).lastIndexOf('\n\nTask:'));
    const byCluster = Object.fromEntries(
      sent
        .filter((b) => purposeOf(b) === 'analysis')
        .map((b) => [/one cluster of tasks: "([^"]+)"/.exec(tail(b))?.[1], tail(b)]),
    );
    expect(byCluster.temporal).toContain('what the next version must protect');
    expect(byCluster['multi-hop']).not.toContain('what the next version must protect');
    expect(byCluster['multi-hop']).toContain('explain the failures');
    const synth = userText(sent.find((b) => purposeOf(b) === 'synthesis'));
    expect(synth).toContain('### multi-hop (4 tasks, mean reward 0.000)');
    expect(synth).toContain('### temporal (4 tasks, mean reward 1.000)');
  });

  it('show an answer only where an agent answered, and a decisive tool result whole', async () => {
    const n = server.chatRequests().length;
    await perProgram().propose(context());
    const a = since(n).map(userText).join('\n');
    expect(a).not.toContain("Agent's answer");
    expect(a).toMatch(/READ x{1000} END-t\d+/);
    await perProgram().propose(context({ guide: { ...context().guide!, agentAnswers: true } }));
    expect(since(n).map(userText).join('\n')).toContain("Agent's answer: answer of t");
  });

  it('give a second child of the same parent a different prompt: what was tried, each child as its edits (a better one may be built on), the best programs elsewhere', async () => {
    const agent = perProgram();
    const parentFiles = context().files;
    const parentText = parentFiles['index.ts'] as string;
    const n5 = { 'index.ts': parentText.replace("text: 'x'", "text: 'neighbours'") };
    const n3 = { 'index.ts': parentText.replace('update() {}', 'update() { /* bm25 */ }') };
    const n = server.chatRequests().length;
    await agent.propose(context());
    const first = since(n)
      .filter((b) => purposeOf(b) === 'generation')
      .map(userText);
    const m = server.chatRequests().length;
    await agent.propose(
      context({
        tried: [
          { node: 'n3', step: 3, edits: [], description: 'BM25 over whole turns.', delta: -0.04, files: n3 },
          { node: 'n5', step: 5, edits: [], description: 'Neighbour turns around each hit.', delta: 0.08, files: n5 },
          { node: 'step 4', step: 4, edits: [], failure: { check: 'interface', detail: 'retrieve returns no text' } },
        ],
        inspirations: [{ node: 'n7', q: 0.91, evaluations: 2, edits: [], description: 'dated lines' }],
      }),
    );
    const second = since(m)
      .filter((b) => purposeOf(b) === 'generation')
      .map(userText);
    expect(second[0]).not.toBe(first[0]);
    expect(second[0]).toContain('Already tried from this program:');
    const edits = (files: Record<string, string>) => renderEdits(editsBetween(parentFiles, files));
    expect(second[0]).toContain(
      `- n3: BM25 over whole turns. → -0.040 against this program on the same tasks (this program: 0.500). Its edits to the program above:\n${edits(n3)}\n`,
    );
    expect(second[0]).toContain(
      `- n5: Neighbour turns around each hit. → +0.080 against this program on the same tasks (this program: 0.500), better. Its edits to the program above:\n${edits(n5)}\n`,
    );
    expect(edits(n5)).toContain("retrieve() { return { text: 'neighbours', images: [] }; } });");
    expect(second[0]).toContain(
      '- step 4: failed before evaluation: quick examination (interface): retrieve returns no text',
    );
    expect(second[0]).toContain(
      'n5 scored better than this program and may be built on: extend its direction with a change of your own (your edits apply to the program above, so keep those of its edits you build on), or diverge from it; say which in your summary.',
    );
    expect(second[0]).toContain('- n7 (mean validation 0.910 over 2 evaluations): dated lines');
    // The proposal was made knowing the same, with the same edits.
    const a = userText(since(m).find((b) => purposeOf(b) === 'program-analysis'));
    expect(a).toContain('- n5: Neighbour turns around each hit.');
    expect(a).toContain("retrieve() { return { text: 'neighbours', images: [] }; } });");
    // Without a better child, every direction is one to leave.
    const k = server.chatRequests().length;
    await agent.propose(
      context({
        tried: [{ node: 'n3', step: 3, edits: [], description: 'BM25 over whole turns.', delta: -0.04, files: n3 }],
      }),
    );
    const third = userText(since(k).find((b) => purposeOf(b) === 'generation'));
    expect(third).toContain('Take a different direction from each; do not write any of them again.');
    expect(third).not.toContain('may be built on');
  });

  it('start from the part every prompt of the run shares, then the program, then the evidence, then the task', async () => {
    const n = server.chatRequests().length;
    await perProgram().propose(context());
    const [a, g] = since(n).map(userText) as [string, string];
    const order = [
      'Environment:',
      'The memo-program contract',
      'automemo/lib, generated from its declarations',
      'The program (seed-a',
      'Evidence from the program',
      'Task:',
    ];
    const at = (p: string) => order.map((marker) => p.indexOf(marker));
    expect(at(a).every((x, i, all) => x >= 0 && (i === 0 || x > (all[i - 1] as number)))).toBe(true);
    const gen = at(g).filter((_, i) => order[i] !== 'Evidence from the program');
    expect(gen.every((x, i, all) => x >= 0 && (i === 0 || x > (all[i - 1] as number)))).toBe(true);
    // The generation starts with everything the analysis showed before its evidence.
    expect(commonPrefix(a, g)).toBeGreaterThanOrEqual(a.indexOf('Evidence from the program'));
  });

  it("attach evidence images as image parts after the text: per cluster its own, per program every cluster's", async () => {
    const images = new Map([
      ['t9', { episode: [png, png, png, png], payload: [png, png] }],
      ['t6', { episode: [png], payload: [] }],
      ['t4', { episode: [png], payload: [] }],
    ]);
    const n = server.chatRequests().length;
    await perCluster().propose(context({ images }));
    const multi = since(n).find(
      (b) => purposeOf(b) === 'analysis' && /cluster of tasks: "multi-hop"/.test(userText(b)),
    );
    const parts = multi.messages.at(-1).content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(Array.isArray(parts)).toBe(true);
    expect(parts[0]?.type).toBe('text');
    const shown = parts.filter((p) => p.type === 'image_url');
    expect(shown).toHaveLength(7);
    expect(shown.every((p) => p.image_url?.url.startsWith('data:image/png;base64,'))).toBe(true);
    const labels = parts
      .filter((p) => p.type === 'text')
      .slice(1)
      .map((p) => p.text);
    expect(labels.filter((l) => l?.startsWith('Image: task t9: episode'))).toHaveLength(4);
    expect(labels.filter((l) => l?.startsWith('Image: task t9: memory'))).toHaveLength(2);
    expect(labels.filter((l) => l?.startsWith('Image: task t6: episode'))).toHaveLength(1);
    // A cluster with no images stays plain text.
    const temporal = since(n).find(
      (b) => purposeOf(b) === 'analysis' && /cluster of tasks: "temporal"/.test(userText(b)),
    );
    expect(typeof temporal.messages.at(-1).content).toBe('string');
    // One call per program carries the images of every cluster (t4 is single-hop's).
    const m = server.chatRequests().length;
    await perProgram().propose(context({ images }));
    const whole = since(m)
      .find((b) => purposeOf(b) === 'program-analysis')
      .messages.at(-1).content as { type: string; text?: string }[];
    expect(whole.filter((p) => p.type === 'image_url')).toHaveLength(8);
    expect(whole.some((p) => p.text === 'Image: task t4: episode image 1')).toBe(true);
  });

  it('record cached prompt tokens and price them at their own rate', async () => {
    const calls: ModelCall[] = [];
    const priced = models({
      AUTOMEMO_META_USD_PER_M_INPUT: '10',
      AUTOMEMO_META_USD_PER_M_CACHED: '1',
      AUTOMEMO_META_USD_PER_M_OUTPUT: '0',
    });
    await new ModelMetaAgent(priced, { clustering: 'metadata', analysis: 'cluster' }).propose(
      context({ onModelCall: (c) => calls.push(c) }),
    );
    const a = calls.find((c) => c.purpose === 'analysis');
    expect(a).toMatchObject({ promptTokens: 1000, cachedTokens: 800 });
    // 200 uncached at $10/M and 800 cached at $1/M.
    expect(a?.usd).toBeCloseTo((200 * 10 + 800 * 1) / 1e6, 12);
    const s = calls.find((c) => c.purpose === 'synthesis');
    expect(s?.cachedTokens).toBeUndefined();
  });
});
