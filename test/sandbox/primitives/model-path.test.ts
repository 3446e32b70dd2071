// The memo and embedding roles against a local OpenAI-compatible server, through the real openai SDK.
import sharp from 'sharp';
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { ExtractiveChat, OpenAIChat } from '../../../sandbox/primitives/chat.ts';
import { CachingEmbedder, OpenAIEmbedder, UseLiteEmbedder } from '../../../sandbox/primitives/embed.ts';
import { EmbedOwner } from '../../../sandbox/primitives/embed-owner.ts';
import { caption, ImageStore } from '../../../sandbox/primitives/images.ts';
import { createHostServices, InstancePrimitives } from '../../../sandbox/primitives/index.ts';
import { fakeEmbedding, OpenAITestServer } from '../../support/openai-server.ts';

let server: OpenAITestServer;
beforeAll(async () => {
  server = await OpenAITestServer.start({ embeddingDim: 6 });
});
afterAll(() => server.close());

const env = () => ({ OPENAI_BASE_URL: server.baseURL, AUTOMEMO_MEMO_MODEL: 'memo-1', AUTOMEMO_EMBEDDING_MODEL: 'embed-1' });

describe('memo model path', () => {
  it('sends chat requests with the configured model and returns usage', async () => {
    server.chatQueue.push({ content: '{"summary":"ok"}', usage: { prompt_tokens: 11, completion_tokens: 3 } });
    const models = resolveModels({}, env());
    const chat = new OpenAIChat(models.memo as never);
    const r = await chat.chat({ messages: [{ role: 'user', content: 'Summarize: hi' }], json: true, maxTokens: 50 });
    expect(r).toEqual({ text: '{"summary":"ok"}', offline: false, model: 'memo-1', usage: { promptTokens: 11, completionTokens: 3 } });
    const sent = server.chatRequests().at(-1);
    expect(sent.model).toBe('memo-1');
    expect(sent.response_format).toEqual({ type: 'json_object' });
    expect(sent.max_tokens).toBe(50);
  });

  it('retries a 429 and a 500, then answers', async () => {
    server.chatQueue.push({ status: 429 }, { status: 500 }, { content: 'third time' });
    const chat = new OpenAIChat(resolveModels({}, env()).memo as never);
    const before = server.chatRequests().length;
    const r = await chat.chat({ messages: [{ role: 'user', content: 'x' }] });
    expect(r.text).toBe('third time');
    expect(server.chatRequests().length - before).toBe(3);
  });

  it('describes an image with an image part when a vision-capable memo model is configured', async () => {
    server.chatQueue.push({ content: 'A red square.' });
    const store = new ImageStore();
    const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } }).png().toBuffer();
    const ref = await store.put(bytes);
    const r = await caption(store.get(ref.id), new OpenAIChat(resolveModels({}, env()).memo as never));
    expect(r).toEqual({ text: 'A red square.', offline: false, source: 'model' });
    const parts = server.chatRequests().at(-1).messages[0].content;
    expect(parts[0].type).toBe('text');
    expect(parts[1].type).toBe('image_url');
    expect(parts[1].image_url.url).toMatch(/^data:image\/png;base64,/);
  });

  it('embeds through the endpoint, unit-normalised and in input order, and caches repeats', async () => {
    const emb = new CachingEmbedder(new OpenAIEmbedder(resolveModels({}, env()).embedding as never));
    const [a, b] = await emb.embed(['alpha', 'beta']);
    const expected = fakeEmbedding('alpha', 6);
    const n = Math.hypot(...expected);
    expect(Array.from(a as Float32Array).map((x) => Number(x.toFixed(5)))).toEqual(expected.map((x) => Number((x / n).toFixed(5))));
    expect(b).not.toEqual(a);
    const calls = server.requests.filter((r) => r.path.endsWith('/embeddings')).length;
    await emb.embed(['alpha', 'beta', 'alpha']);
    expect(server.requests.filter((r) => r.path.endsWith('/embeddings')).length).toBe(calls);
    expect(emb.hits).toBe(3);
    expect(server.requests.filter((r) => r.path.endsWith('/embeddings')).at(-1)?.body.encoding_format).toBe('float');
  });

  it('ties a request to its program instance only while it is in flight: no listeners pile up on the owner', async () => {
    const owner = new EmbedOwner();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const emb = new OpenAIEmbedder(resolveModels({}, env()).embedding as never);
      for (let i = 0; i < 15; i++) await emb.embed([`text ${i}`], owner);
      await Promise.all(Array.from({ length: 12 }, (_, i) => emb.embed([`at once ${i}`], owner)));
      // The SDK never removes the listener it adds: on the owner's own signal, 27 would be left here.
      expect(getEventListeners(owner.signal, 'abort')).toHaveLength(0);
      await new Promise((r) => setImmediate(r));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
      // Ending the instance still stops a request in flight.
      server.embeddingQueue.push({ delayMs: 2000 });
      const late = emb.embed(['late'], owner);
      owner.close();
      await expect(late).rejects.toThrow();
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('reaches programs through ctx with the mode stated', async () => {
    const services = createHostServices(resolveModels({}, env()));
    expect(services.modes.memo).toContain('memo-1');
    const prims = new InstancePrimitives(services);
    server.chatQueue.push({ content: 'model says hi' });
    const r = await prims.dispatch('llm.chat', [{ messages: [{ role: 'user', content: 'hello' }] }]);
    expect(r).toMatchObject({ ok: true, value: { text: 'model says hi', offline: false } });
    const e = await prims.dispatch('embed', [['one']]);
    expect(e.ok && (e.value as number[][])[0]).toHaveLength(6);
  });
});

describe('offline paths', () => {
  it('the extractive fallback picks the sentences that match the instruction, deterministically', async () => {
    const chat = new ExtractiveChat();
    const req = {
      messages: [
        { role: 'system' as const, content: 'Extract what the user says about adoption agencies.' },
        {
          role: 'user' as const,
          content:
            'We went camping last weekend. I have been researching adoption agencies for months. The weather was lovely. My favourite adoption agency supports LGBTQ families.',
        },
      ],
      maxTokens: 30,
    };
    const r = await chat.chat(req);
    expect(r.offline).toBe(true);
    expect(r.model).toBe('offline-extractive');
    expect(r.text).toBe(
      'I have been researching adoption agencies for months. My favourite adoption agency supports LGBTQ families.',
    );
    expect(await chat.chat(req)).toEqual(r);
    const json = await chat.chat({ ...req, json: true });
    expect(JSON.parse(json.text)).toEqual({ offline: true, text: r.text });
  });

  it('offline embeddings are unit-length and semantically ordered', async () => {
    const emb = new UseLiteEmbedder();
    const [cat, kitten, stocks, empty] = await emb.embed(['the cat sleeps', 'a kitten naps', 'stock markets fell sharply', '']);
    const dot = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * (y[i] as number), 0);
    expect(cat).toHaveLength(512);
    expect(Math.hypot(...(cat as Float32Array))).toBeCloseTo(1, 5);
    expect(dot(cat as Float32Array, kitten as Float32Array)).toBeGreaterThan(dot(cat as Float32Array, stocks as Float32Array) + 0.2);
    expect((empty as Float32Array).every(Number.isFinite)).toBe(true);
  });
});
