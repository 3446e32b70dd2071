// A model search on a visual or web benchmark shows the meta model what the agent saw: its analysis requests to the local
// server carry the evidence's images as image parts, within the paper's limits (4 per episode, 2 of memory).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { search } from 'automemo';
import { resolveModels } from '../../engine/llm/models.ts';
import { OpenAITestServer } from '../support/openai-server.ts';
import { purposeOf } from '../support/recorded-session.ts';

let server: OpenAITestServer;
const work = mkdtempSync(join(tmpdir(), 'search-images-'));
beforeAll(async () => {
  server = await OpenAITestServer.start();
  server.onChat = (body) => {
    const purpose = purposeOf(body);
    if (purpose === 'analysis') return { content: JSON.stringify({ relevance: [], weaknesses: ['w'], suggestions: [{ priority: 1, change: 'c' }] }) };
    if (purpose === 'synthesis') return { content: JSON.stringify({ summary: 's', changes: [{ change: 'c' }] }) };
    return { content: "```ts\n// file: index.ts\nimport { defineMemo } from 'automemo/contract';\nexport default defineMemo({ update() {}, retrieve() { return { text: 'x', images: [] }; } });\n```" };
  };
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

describe.each([
  ['visual:scenes', 'task images'],
  ['web:code', 'screenshots'],
])('a model search on %s', (env, what) => {
  it(`sends the analyses the ${what} as image parts, at most 4 per episode and 2 of memory`, async () => {
    const models = resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1' });
    const before = server.chatRequests().length;
    await search({ env, out: join(work, env.replace(':', '-')), models, meta: 'model', clustering: 'metadata', seeds: ['trajectory-retrieval'], budget: 1, test: false, evalFraction: 0.2, minEvalTasks: 6 });
    const analyses = server.chatRequests().slice(before).filter((b) => purposeOf(b) === 'analysis');
    expect(analyses.length).toBeGreaterThan(0);
    let images = 0;
    for (const body of analyses) {
      const content = body.messages.at(-1).content;
      if (typeof content === 'string') continue;
      expect(content[0].type).toBe('text');
      const labels = content.filter((p: { type: string }) => p.type === 'text').slice(1).map((p: { text: string }) => p.text as string);
      const perTask = new Map<string, { episode: number; memory: number }>();
      for (const l of labels) {
        const m = /^Image: task (\S+): (episode|memory) image/.exec(l);
        expect(m, l).not.toBeNull();
        const c = perTask.get(m?.[1] as string) ?? { episode: 0, memory: 0 };
        c[m?.[2] as 'episode' | 'memory']++;
        perTask.set(m?.[1] as string, c);
      }
      for (const c of perTask.values()) {
        expect(c.episode).toBeLessThanOrEqual(4);
        expect(c.memory).toBeLessThanOrEqual(2);
      }
      const parts = content.filter((p: { type: string }) => p.type === 'image_url');
      expect(parts.every((p: { image_url: { url: string } }) => /^data:image\/(png|jpeg|webp);base64,/.test(p.image_url.url))).toBe(true);
      images += parts.length;
    }
    expect(images).toBeGreaterThan(0);
  }, 300_000);
});
