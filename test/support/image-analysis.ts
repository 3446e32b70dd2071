// A local model for searches on visual and web through the CLI: it answers every meta call, and the test then checks
// that the analysis requests (one per child by default, or one per program or per cluster) carried the evidence images as image
// parts within the paper's limits.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { automemoInProcessWithEnv } from './cli.ts';
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

/**
 * A one-step model search on `env` through the CLI's dispatcher in this process, against metaModelServer (no test-split
 * phase: the same code on any environment, LoCoMo's demo covers it), checked as every such test checks it: exit 0, the
 * pick's line, image parts within limits, at least two training evaluations journaled, run.json naming `envName`.
 */
export async function expectModelSearchWithImages(env: string, envName: string, run: string): Promise<{ out: string }> {
  const server = await metaModelServer();
  const r = await automemoInProcessWithEnv(
    { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1' },
    ...['search', '--env', env, '--budget', '1', '--seeds', 'trajectory-retrieval', '--meta', 'model'],
    ...['--clusters', 'metadata', '--policy', 'greedy', '--no-test', '--eval-fraction', '0.1', '--min-eval-tasks', '3'],
    ...['--out', run],
  ).finally(() => server.close());
  expect(r.code, r.err).toBe(0);
  expect(r.out).toContain(`env ${env} (offline`);
  expect(r.out).toMatch(/selected \(lcb\)\s+\S+: search validation [01]\.\d{3}/);
  expectImagePartsWithinLimits(server);
  const events = readFileSync(join(run, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(events.filter((e) => e.type === 'evaluation' && e.split === 'train').length).toBeGreaterThanOrEqual(2);
  expect(JSON.parse(readFileSync(join(run, 'run.json'), 'utf8')).env.name).toBe(envName);
  return r;
}
