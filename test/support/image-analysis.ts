// A local model for searches on visual and web through the CLI: it answers every meta call, and the test then checks
// that the analysis requests (one per child by default, or one per program or per cluster) carried the evidence images as image
// parts within the paper's limits.
import { expect } from 'vitest';
import { OpenAITestServer } from './openai-server.ts';
import { programAnalysisReply, withAnalysis } from './meta-replies.ts';
import { purposeOf } from './recorded-session.ts';

export async function metaModelServer(): Promise<OpenAITestServer> {
  const server = await OpenAITestServer.start();
  server.onChat = (body) => {
    const purpose = purposeOf(body);
    if (purpose === 'analysis')
      return {
        content: JSON.stringify({ relevance: [], weaknesses: ['w'], suggestions: [{ priority: 1, change: 'c' }] }),
      };
    if (purpose === 'synthesis') return { content: JSON.stringify({ summary: 's', changes: [{ change: 'c' }] }) };
    if (purpose === 'program-analysis') return { content: programAnalysisReply(body) };
    return {
      content: withAnalysis(
        body,
        "```ts\n// file: index.ts\nimport { defineMemo } from 'automemo/contract';\nexport default defineMemo({ update() {}, retrieve() { return { text: 'nothing', images: [] }; } });\n```",
      ),
    };
  };
  return server;
}

/** Every analysis request's images are labelled parts after the text: at most 4 per episode and 2 of memory; some exist. */
export function expectImagePartsWithinLimits(server: OpenAITestServer): void {
  const analyses = server
    .chatRequests()
    .filter((b) => ['analysis', 'program-analysis', 'proposal'].includes(purposeOf(b) ?? ''));
  expect(analyses.length).toBeGreaterThan(0);
  let images = 0;
  for (const body of analyses) {
    const content = body.messages.at(-1).content;
    if (typeof content === 'string') continue;
    expect(content[0].type).toBe('text');
    const perTask = new Map<string, { episode: number; memory: number }>();
    for (const part of content.slice(1).filter((p: { type: string }) => p.type === 'text')) {
      const m = /^Image: task (\S+): (episode|memory) image/.exec(part.text);
      expect(m, part.text).not.toBeNull();
      const c = perTask.get(m?.[1] as string) ?? { episode: 0, memory: 0 };
      c[m?.[2] as 'episode' | 'memory']++;
      perTask.set(m?.[1] as string, c);
    }
    for (const c of perTask.values()) {
      expect(c.episode).toBeLessThanOrEqual(4);
      expect(c.memory).toBeLessThanOrEqual(2);
    }
    const parts = content.filter((p: { type: string }) => p.type === 'image_url');
    expect(
      parts.every((p: { image_url: { url: string } }) => /^data:image\/(png|jpeg|webp);base64,/.test(p.image_url.url)),
    ).toBe(true);
    images += parts.length;
  }
  expect(images).toBeGreaterThan(0);
}
