// A model call is sent once, through the real openai SDK against a local server: an answer that comes after the
// HTTP client's own default deadline (Node's 300 s, shortened here by giving the process a global dispatcher with a
// short one) is waited for until the role's timeoutMs; a timeout, a connection dropped after the request went out,
// or a gateway timeout is not sent again; a connection that was never made and an answer saying "not done" (429)
// are, and each retry is noted with its reason; no connection is reused.
import { createServer } from 'node:net';
import { Agent, type Dispatcher, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clientFor } from '../../../foundation/llm/client.ts';
import type { RoleModel } from '../../../foundation/llm/models.ts';
import { recordingRetries } from '../../../foundation/llm/transport.ts';
import { OpenAITestServer } from '../../support/openai-server.ts';

let server: OpenAITestServer;
let before: Dispatcher;
beforeAll(async () => {
  server = await OpenAITestServer.start();
});
afterAll(() => server.close());
// Node's fetch gives up on response headers after its dispatcher's deadline (300 s by default): 300 ms here.
beforeEach(() => {
  before = getGlobalDispatcher();
  setGlobalDispatcher(new Agent({ headersTimeout: 300, bodyTimeout: 300 }));
});
afterEach(() => setGlobalDispatcher(before));

const model = (timeoutMs: number, baseURL = server.baseURL): RoleModel => ({
  role: 'meta',
  model: 'slow-reasoner',
  baseURL,
  timeoutMs,
});
const ask = (m: RoleModel) =>
  clientFor(m).chat.completions.create({ model: m.model, messages: [{ role: 'user', content: 'think long' }] });
const sent = (from: number) => server.chatRequests().length - from;

describe('a model call', () => {
  it("waits for an answer past the HTTP client's default deadline, up to timeoutMs, and sends the request once", async () => {
    const n = server.chatRequests().length;
    server.chatQueue.push({ content: 'worth the wait', delayMs: 2500 });
    const retries: string[] = [];
    const res = await recordingRetries(retries, () => ask(model(20_000)));
    expect(res.choices[0]?.message.content).toBe('worth the wait');
    expect(sent(n)).toBe(1);
    expect(retries).toEqual([]);
  });

  it('is not sent again after its own timeout, a dropped connection or a gateway timeout: the server may still be working', async () => {
    const n = server.chatRequests().length;
    server.chatQueue.push({ content: 'too late', delayMs: 1500 });
    await expect(ask(model(400))).rejects.toThrow(/timed out/i);
    expect(sent(n)).toBe(1);
    server.chatQueue.push({ drop: true, delayMs: 50 });
    await expect(ask(model(10_000))).rejects.toThrow(/connection/i);
    expect(sent(n)).toBe(2);
    server.chatQueue.push({ status: 504 });
    await expect(ask(model(10_000))).rejects.toThrow(/504/);
    expect(sent(n)).toBe(3);
  });

  it('goes over a connection of its own: a kept-alive one the server closed while idle would fail it after sending', async () => {
    const n = server.connections;
    for (let i = 0; i < 3; i++) await ask(model(10_000));
    expect(server.connections - n).toBe(3);
  });

  it('is sent again after an answer saying it was not done (429), noting why', async () => {
    const n = server.chatRequests().length;
    server.chatQueue.push({ status: 429 }, { content: 'second time' });
    const retries: string[] = [];
    const res = await recordingRetries(retries, () => ask(model(10_000)));
    expect(res.choices[0]?.message.content).toBe('second time');
    expect(server.chatRequests().length - n).toBe(2);
    expect(retries).toEqual(['answered 429']);
  });

  it('is sent again when the connection was never made, at most twice, noting why', async () => {
    // A port nothing listens on: every attempt is refused before anything is sent.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const retries: string[] = [];
    await expect(recordingRetries(retries, () => ask(model(10_000, `http://127.0.0.1:${port}/v1`)))).rejects.toThrow(
      /connection/i,
    );
    expect(retries).toEqual(['connection not made (ECONNREFUSED)', 'connection not made (ECONNREFUSED)']);
  });
});
