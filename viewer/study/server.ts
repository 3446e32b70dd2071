// `automemo view <study folder>`: the study's page on 127.0.0.1 (rendered from study.json on every request, so a
// running study shows what has finished), each search linked to its run's own live viewer (viewer/server.ts), one
// per run folder, started with the study's server and stopped with it.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { analyzeStudy } from '../../engine/study/analysis.ts';
import { StudyFolder } from '../../run-store/study-folder.ts';
import { ViewServer } from '../server.ts';
import { renderHtml } from './html.ts';

export class StudyServer {
  private server?: Server;
  private readonly runs = new Map<string, ViewServer>();
  private readonly folder: StudyFolder;
  private port = 0;

  constructor(dir: string) {
    this.folder = new StudyFolder(dir);
  }

  /** Starts serving the study (and a viewer per search run); throws NotAStudyError when the folder is not a study. */
  async listen(port = 0): Promise<string> {
    const study = this.folder.read();
    const all = [...study.environments, ...(study.joint ? [study.joint] : [])].flatMap((e) => e.searches.map((s) => s.run));
    for (const run of all) {
      const dir = join(this.folder.dir, run);
      if (!existsSync(join(dir, 'run.json')) || this.runs.has(run)) continue;
      const viewer = new ViewServer(dir);
      try {
        await viewer.listen(0);
        this.runs.set(run, viewer);
      } catch {
        // A run that cannot be shown is left unlinked; the study page still names it.
      }
    }
    const server = createServer((req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '');
      if (host !== '127.0.0.1' && host !== 'localhost') {
        res.writeHead(403).end('unexpected Host');
        return;
      }
      if (req.method !== 'GET' || (req.url ?? '/') !== '/') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('the study is at /');
        return;
      }
      try {
        const now = this.folder.read();
        const html = renderHtml(now, analyzeStudy(now), (run) => this.runs.get(run)?.url);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
      } catch (err) {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end((err as Error).message);
      }
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    return this.url;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  /** The viewer of each search's run, by its folder relative to the study. */
  get runViewers(): ReadonlyMap<string, string> {
    return new Map([...this.runs].map(([run, v]) => [run, v.url]));
  }

  async close(): Promise<void> {
    await Promise.all([...this.runs.values()].map((v) => v.close()));
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    server?.closeAllConnections();
  }
}
