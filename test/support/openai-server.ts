// A small OpenAI-compatible server on 127.0.0.1 for tests of the model path: scripted chat replies (including
// malformed output, 429/500 errors, slow replies, dropped connections, replies cut at max_tokens, and replies a
// handler waits for), deterministic embeddings, and a log of every request.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedReply {
  /** HTTP status (default 200). */
  status?: number;
  /** Assistant message content for a 200 chat reply. */
  content?: string;
  /** A raw body sent as is (e.g. broken JSON). */
  raw?: string;
  /** Wait this long before answering. */
  delayMs?: number;
  /** The choice's finish reason (default "stop"; "length" says the reply hit max_tokens). */
  finishReason?: string;
  /** Close the connection without answering (after the delay): the request was received, no reply comes. */
  drop?: boolean;
  /** Usage to report (default: rough counts). */
  usage?: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens?: number } };
}

export interface RecordedRequest {
  path: string;
  body: any;
  headers: IncomingMessage['headers'];
}

export type ChatHandler = (body: any) => ScriptedReply | undefined | Promise<ScriptedReply | undefined>;

export class OpenAITestServer {
  readonly requests: RecordedRequest[] = [];
  /** Replies used in order; when empty, `onChat` answers, else an echo of the last user message. */
  readonly chatQueue: ScriptedReply[] = [];
  onChat: ChatHandler | undefined;
  embeddingQueue: ScriptedReply[] = [];
  readonly embeddingDim: number;
  /** TCP connections accepted so far. */
  connections = 0;

  private constructor(
    private readonly server: Server,
    readonly baseURL: string,
    dim: number,
  ) {
    this.embeddingDim = dim;
  }

  static async start(options: { embeddingDim?: number } = {}): Promise<OpenAITestServer> {
    const holder: { self?: OpenAITestServer } = {};
    const server = createServer((req, res) => {
      void holder.self?.handle(req, res);
    });
    server.on('connection', () => {
      if (holder.self) holder.self.connections++;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.self = new OpenAITestServer(server, `http://127.0.0.1:${port}/v1`, options.embeddingDim ?? 8);
    return holder.self;
  }

  chatRequests(): any[] {
    return this.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const path = req.url ?? '';
    this.requests.push({ path, body, headers: req.headers });
    if (path.endsWith('/chat/completions')) return this.chat(body, res);
    if (path.endsWith('/embeddings')) return this.embeddings(body, res);
    send(res, 404, { error: { message: `no route ${path}`, type: 'invalid_request_error' } });
  }

  private async chat(body: any, res: ServerResponse): Promise<void> {
    const reply = this.chatQueue.shift() ?? (await this.onChat?.(body)) ?? { content: echo(body) };
    if (reply.delayMs) await sleep(reply.delayMs);
    if (res.destroyed) return;
    if (reply.drop) {
      res.socket?.destroy();
      return;
    }
    if (reply.raw !== undefined) return sendRaw(res, reply.status ?? 200, reply.raw);
    const status = reply.status ?? 200;
    if (status !== 200) {
      return send(res, status, { error: { message: `scripted ${status}`, type: status === 429 ? 'rate_limit_error' : 'server_error' } });
    }
    const content = reply.content ?? '';
    const promptChars = JSON.stringify(body?.messages ?? '').length;
    send(res, 200, {
      id: `chatcmpl-${this.requests.length}`,
      object: 'chat.completion',
      created: 0,
      model: body?.model ?? 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: reply.finishReason ?? 'stop' }],
      usage: reply.usage ?? {
        prompt_tokens: Math.ceil(promptChars / 4),
        completion_tokens: Math.ceil(content.length / 4),
        total_tokens: Math.ceil(promptChars / 4) + Math.ceil(content.length / 4),
      },
    });
  }

  private async embeddings(body: any, res: ServerResponse): Promise<void> {
    const reply = this.embeddingQueue.shift();
    if (reply?.delayMs) await sleep(reply.delayMs);
    if (reply?.status && reply.status !== 200) return send(res, reply.status, { error: { message: `scripted ${reply.status}` } });
    const inputs: string[] = Array.isArray(body?.input) ? body.input : [body?.input];
    const data = inputs.map((t, index) => {
      const v = fakeEmbedding(String(t), this.embeddingDim);
      const embedding = body?.encoding_format === 'base64' ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v;
      return { object: 'embedding', index, embedding };
    });
    send(res, 200, { object: 'list', data, model: body?.model ?? 'test-embed', usage: { prompt_tokens: inputs.length, total_tokens: inputs.length } });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Deterministic vector from a text's hash, so tests can predict similarity (same text, same vector). */
export function fakeEmbedding(text: string, dim: number): number[] {
  const h = createHash('sha256').update(text).digest();
  return Array.from({ length: dim }, (_, i) => ((h[i % h.length] as number) - 127.5) / 127.5);
}

function echo(body: any): string {
  const msgs = body?.messages ?? [];
  const last = msgs[msgs.length - 1];
  const content = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
  return `echo: ${content.slice(0, 200)}`;
}

function send(res: ServerResponse, status: number, payload: unknown): void {
  sendRaw(res, status, JSON.stringify(payload));
}

function sendRaw(res: ServerResponse, status: number, raw: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(raw);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
