// Serving a site on 127.0.0.1: one HTTP server per episode, over that episode's own copy of the database, on a
// free port. Requests become SiteRequest values; a handler that throws gives a 500 page naming the error (the
// agent sees it; the episode goes on).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { esc } from './html.ts';
import type { SiteDb, SiteRequest, SiteResponse, WebSite } from './site.ts';

export interface RunningSite<DB extends SiteDb> {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  db: DB;
  /** Requests served, for tests and diagnostics. */
  requests: number;
  close(): Promise<void>;
}

function cookiesOf(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
  }
  return out;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 1_000_000) throw new Error('request body over 1 MB');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startSite<DB extends SiteDb>(site: WebSite<DB>, db: DB): Promise<RunningSite<DB>> {
  const running: RunningSite<DB> = { url: '', db, requests: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    void (async () => {
      running.requests++;
      let response: SiteResponse;
      try {
        const u = new URL(req.url ?? '/', 'http://127.0.0.1');
        if (u.pathname === '/favicon.ico') {
          res.writeHead(204).end();
          return;
        }
        const method = req.method === 'POST' ? 'POST' : 'GET';
        const form = new URLSearchParams(method === 'POST' ? await bodyOf(req) : '');
        const request: SiteRequest = { method, path: u.pathname, query: u.searchParams, form, cookies: cookiesOf(req.headers.cookie) };
        response = site.handle(db, request);
      } catch (err) {
        response = { status: 500, html: `<!doctype html><title>Error</title><h1>Server error</h1><p>${esc((err as Error).message)}</p>` };
      }
      const headers: Record<string, string | string[]> = { 'cache-control': 'no-store' };
      const cookies = Object.entries(response.setCookies ?? {}).map(([k, v]) => `${k}=${encodeURIComponent(v)}; Path=/; SameSite=Lax`);
      if (cookies.length) headers['set-cookie'] = cookies;
      if (response.redirect) {
        res.writeHead(response.status ?? 303, { ...headers, location: response.redirect }).end();
        return;
      }
      res.writeHead(response.status ?? (response.html ? 200 : 404), { ...headers, 'content-type': 'text/html; charset=utf-8' });
      res.end(response.html ?? '<!doctype html><title>Not found</title><h1>Not found</h1>');
    })();
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  running.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  running.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return running;
}
