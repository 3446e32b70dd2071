// The viewer's web server, on 127.0.0.1 only: the page, the run as JSON (re-read on request), node details and
// evidence on demand, files of the run folder (images) behind the traversal guard, and a server-sent event stream
// that pushes the run again whenever its journal or lock changes, so the page follows a running search.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';
import { readEvidence } from './evidence-view.ts';
import { readFailureDetail, readNodeDetail, readNoOpDetail } from './node-detail.ts';
import { pageAsset } from './page-assets.ts';
import { readRun, type RunView } from './run-model.ts';
import { insideRoot } from '../foundation/safe-path.ts';
import { watchRun, type WatchOptions } from './watch.ts';

const FILE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
};

export class ViewServer {
  private server?: Server;
  private readonly clients = new Set<ServerResponse>();
  private stopWatching?: () => void;
  private heartbeat?: NodeJS.Timeout;
  private port = 0;

  constructor(
    readonly dir: string,
    private readonly watchOptions: WatchOptions = {},
  ) {}

  /** Starts serving (port 0: any free port) and returns the page's URL. Throws when the folder is not a run. */
  async listen(port = 0): Promise<string> {
    readRun(this.dir);
    const server = createServer((req, res) => this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.stopWatching = watchRun(this.dir, () => this.broadcast(), this.watchOptions);
    // Keeps idle connections (and proxies) from timing the stream out.
    this.heartbeat = setInterval(() => {
      for (const c of this.clients) c.write(': keep-alive\n\n');
    }, 15_000);
    this.heartbeat.unref();
    return this.url;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  async close(): Promise<void> {
    this.stopWatching?.();
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const c of this.clients) c.end();
    this.clients.clear();
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    server?.closeAllConnections();
  }

  private broadcast(): void {
    const message = this.runMessage();
    for (const c of this.clients) c.write(message);
  }

  private runMessage(): string {
    try {
      return `event: run\ndata: ${JSON.stringify(readRun(this.dir))}\n\n`;
    } catch (err) {
      return `event: problem\ndata: ${JSON.stringify({ message: (err as Error).message })}\n\n`;
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    try {
      this.route(req, res);
    } catch (err) {
      send(res, 500, { error: (err as Error).message });
    }
  }

  private route(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { error: 'only GET' });
    // Only this machine's names: a page elsewhere cannot reach the server through a rebound DNS name.
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    if (host !== '127.0.0.1' && host !== 'localhost') return send(res, 403, { error: 'unexpected Host' });
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const q = (name: string) => url.searchParams.get(name) ?? '';
    if (path === '/events') return this.subscribe(req, res);
    if (path === '/api/run') return send(res, 200, readRun(this.dir));
    if (path === '/api/node') return found(res, readNodeDetail(readRun(this.dir), q('id')), `no node ${q('id')}`);
    if (path === '/api/noop') return found(res, readNoOpDetail(readRun(this.dir), Number(q('index'))), `no no-op child ${q('index')}`);
    if (path === '/api/failure') return found(res, readFailureDetail(readRun(this.dir), Number(q('step'))), `no failed generation at step ${q('step')}`);
    if (path === '/api/evidence') return this.evidence(res, readRun(this.dir), q('node'), q('evidence'));
    if (path.startsWith('/files/')) return this.file(res, decodeURIComponent(path.slice('/files/'.length)));
    const asset = pageAsset(path === '/' ? 'index.html' : path.slice(1));
    if (!asset) return send(res, 404, { error: `no ${path}` });
    res.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-store' });
    res.end(asset.body);
  }

  /** Evidence of one of the node's evaluations: only folders the journal names for that node. */
  private evidence(res: ServerResponse, run: RunView, node: string, evidence: string): void {
    const known = run.nodes.find((n) => n.id === node)?.evaluations.some((e) => e.evidence === evidence);
    if (!known) return send(res, 404, { error: `no evaluation of ${node} with evidence ${evidence}` });
    found(res, readEvidence(this.dir, evidence), `evidence ${evidence} is outside the run folder`);
  }

  private file(res: ServerResponse, rel: string): void {
    const full = insideRoot(this.dir, rel);
    if (!full || !existsSync(full) || !statSync(full).isFile()) return send(res, 404, { error: 'no such file in the run folder' });
    res.writeHead(200, {
      'content-type': FILE_TYPES[extname(full).toLowerCase()] ?? 'text/plain; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'content-security-policy': 'sandbox',
    });
    createReadStream(full).pipe(res);
  }

  private subscribe(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write('retry: 2000\n\n');
    res.write(this.runMessage());
    this.clients.add(res);
    req.on('close', () => this.clients.delete(res));
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function found(res: ServerResponse, body: unknown, missing: string): void {
  if (body === null || body === undefined) send(res, 404, { error: missing });
  else send(res, 200, body);
}
