// The viewer and the report on a real run (an offline search on LoCoMo through the CLI's dispatcher), in real
// Chromium: the page loads, the tree has a mark per node, a node's panel shows its diff, meta feedback and per-task
// outcomes; the page follows journal appends live (including a torn line); the static report renders offline from one
// file; paths outside the run folder are refused; a folder that is not a run is an error.
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../envs/web/browser/browser.ts';
import { defaultLocomoDir } from '../../envs/locomo/environment.ts';
import { repoRoot } from '../../foundation/paths.ts';
import { readJournal } from '../../run-store/journal.ts';
import { buildBundle } from '../../viewer/report.ts';
import { ViewServer } from '../../viewer/server.ts';
import { automemoInProcess, bin, cliEnv } from '../support/cli.ts';
import { openViewerPage } from './open-page.ts';

// A fresh folder per run (two checkouts testing at once on one machine never share it); the screenshot stays.
const base = mkdtempSync(join(tmpdir(), 'automemo-view-test-'));
const run = join(base, 'run');
const screenshot = join(base, 'viewer.png');
// In the page (a string: tests are not type-checked against the DOM): the added 48×32 image has loaded.
const IMAGE_LOADED = "document.querySelector('#panel .task-detail .images img')?.naturalWidth === 48";
const CHROMIUM = CHROMIUM_PATH;
const scratch: string[] = [];
const servers: ViewServer[] = [];
let browser: Browser;

/** How many nodes the journal has (the page must draw one mark per node). */
const journalNodes = (dir: string) =>
  readJournal(join(dir, 'journal.jsonl')).events.filter((e) => e.type === 'node').length;

const open = (url: string) => openViewerPage(browser, url);

async function serve(dir: string): Promise<string> {
  const server = new ViewServer(dir, { pollMs: 300, debounceMs: 50 });
  servers.push(server);
  return server.listen(0);
}

/** A raw GET: fetch() would normalise the `..` this test needs to send. */
function rawGet(url: string, path: string, host?: string): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, headers: host ? { host } : {} }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  // One LoCoMo conversation (Caroline and Melanie's) is a whole run to view, test phase included, in a tenth of the time.
  const data = join(base, 'locomo');
  mkdirSync(data);
  cpSync(join(defaultLocomoDir(), '26.json'), join(data, '26.json'));
  // The commands other than `view` itself run through the dispatcher in this process: what they print and write is
  // the subject, and a process start is seconds of CPU.
  const r = await automemoInProcess(
    'search',
    '--env',
    'locomo',
    '--data',
    data,
    '--budget',
    '3',
    '--seeds',
    'bm25',
    '--meta',
    'offline',
    '--eval-fraction',
    '0.2',
    '--min-eval-tasks',
    '0',
    '--seed',
    '0',
    '--out',
    run,
  );
  expect(r.code, r.err).toBe(0);
  // LoCoMo shows no images; one is added to a task's payload so that serving and inlining images are exercised.
  const evidence = join(run, 'evidence', 'n1', 'train-0');
  mkdirSync(join(evidence, 'images'), { recursive: true });
  await sharp({ create: { width: 48, height: 32, channels: 3, background: '#c03020' } })
    .png()
    .toFile(join(evidence, 'images', 'img-test.png'));
  const [first, ...rest] = readFileSync(join(evidence, 'tasks.jsonl'), 'utf8').trim().split('\n');
  const task = JSON.parse(first as string);
  task.payload.images = ['img-test'];
  // And one line of garbage: the page must say it could not read it, and why.
  writeFileSync(join(evidence, 'tasks.jsonl'), `${[JSON.stringify(task), ...rest, 'GARBAGE'].join('\n')}\n`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  for (const s of servers) await s.close();
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
  rmSync(run, { recursive: true, force: true });
});

describe('automemo view', () => {
  it('draws the tree, the chart and the action log; a node shows its diff, feedback and outcomes', async () => {
    const page = await open(await serve(run));
    expect(await page.locator('#tree .node').count()).toBe(journalNodes(run));
    expect(await page.locator('#tree .node.winner').count()).toBe(1);
    expect(await page.locator('#chart path.best-mean').count()).toBe(1);
    expect(await page.locator('#log tr.action').count()).toBe(3);
    await page.locator('#tree .node[data-id="seed-bm25"] .dot').hover();
    expect(await page.locator('#tooltip').textContent()).toMatch(/confidence interval \S+ … \S+/);

    await page.locator('#tree .node[data-id="n1"] .dot').click();
    await page.waitForSelector('#panel .diff .dl.add');
    expect(await page.locator('#panel .diff .dl.del').count()).toBeGreaterThan(0);
    expect(await page.locator('#panel .diff-summary').textContent()).toContain('seed-bm25 → n1');
    expect(await page.locator('#panel table.clusters tr').count()).toBeGreaterThan(1);
    await page.waitForSelector('#panel table.tasks tr.task');
    expect(await page.locator('#panel .outcomes').first().textContent()).toContain('1 unreadable lines');
    expect(await page.locator('#panel .evidence-problems').first().textContent()).toMatch(
      /tasks\.jsonl line \d+: not JSON/,
    );
    await page.locator('#panel table.tasks tr.task').first().click();
    const img = page.locator('#panel .task-detail .images img');
    await img.waitFor();
    await page.waitForFunction(IMAGE_LOADED);

    await page.selectOption('#cmp-a', 'seed-bm25');
    await page.selectOption('#cmp-b', 'n1');
    await page.click('#cmp-go');
    await page.waitForSelector('#compare .compare-summary');
    expect(await page.locator('#compare .compare-summary').textContent()).toMatch(/\d+ shared tasks/);
    await page.screenshot({ path: screenshot, fullPage: true });
    console.log(`viewer screenshot: ${screenshot}`);
    await page.close();
  }, 60_000);

  it('follows the run live: appended steps, failed generations and a torn last line reach the page', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'view-live-')), 'run');
    scratch.push(join(dir, '..'));
    cpSync(run, dir, { recursive: true });
    const page = await open(await serve(dir));
    expect(await page.locator('#tree .failed').count()).toBe(0);
    writeFileSync(join(dir, 'lock'), String(process.pid));
    await page.waitForFunction("document.getElementById('status')?.textContent?.startsWith('running')");
    const line = (e: object) => `${JSON.stringify({ ...e, t: Date.now() })}\n`;
    appendFileSync(
      join(dir, 'journal.jsonl'),
      line({ type: 'start', resumed: true, pid: process.pid }) +
        line({
          type: 'action',
          step: 4,
          kind: 'generate',
          node: 'n1',
          score: 1.1,
          candidates: [{ kind: 'generate', node: 'n1', score: 1.1 }],
        }),
    );
    await page.waitForSelector('#tree .node.busy[data-id="n1"]');
    appendFileSync(
      join(dir, 'journal.jsonl'),
      line({
        type: 'generation-failed',
        step: 4,
        parent: 'n1',
        failure: { check: 'interface', detail: 'no default export' },
        attempts: 4,
      }) + line({ type: 'step-done', step: 4 }),
    );
    await page.waitForSelector('#tree .failed[data-step="4"]');
    expect(await page.locator('#log tr.action').count()).toBe(4);
    await page.locator('#tree .failed[data-step="4"]').click();
    await page.waitForSelector('#panel pre.error');
    expect(await page.locator('#panel').textContent()).toContain('no default export');
    // An evaluation that scored nothing: the action log and the node's panel say so, with why.
    const why = 'infrastructure failed all 4 tasks: toy tool is down';
    appendFileSync(
      join(dir, 'journal.jsonl'),
      line({
        type: 'action',
        step: 5,
        kind: 'evaluate',
        node: 'seed-bm25',
        score: 1,
        candidates: [{ kind: 'evaluate', node: 'seed-bm25', score: 1 }],
      }) +
        line({
          type: 'evaluation',
          step: 5,
          node: 'seed-bm25',
          split: 'train',
          index: 9,
          score: null,
          unscored: why,
          tasks: 4,
          evidence: 'evidence/seed-bm25/train-9-unscored-1',
          stats: {},
          ms: 5,
        }) +
        line({ type: 'step-done', step: 5 }),
    );
    await page.waitForSelector('#log tr.action[data-step="5"]');
    expect(await page.locator('#log tr.action[data-step="5"]').textContent()).toContain(`unscored: ${why}`);
    await page.locator('#tree .node[data-id="seed-bm25"] .dot').click();
    await page.waitForSelector('#panel ul.unscored');
    expect(await page.locator('#panel ul.unscored').textContent()).toContain(
      `unscored: ${why} (validation evaluation at step 5; not counted)`,
    );
    expect(await page.locator('#panel button.eval.unscored').textContent()).toContain('validation #9: unscored');
    // A child that would have changed nothing: the log says so, a no-op mark appears, and no node.
    appendFileSync(
      join(dir, 'journal.jsonl'),
      line({
        type: 'action',
        step: 6,
        kind: 'generate',
        node: 'seed-bm25',
        score: 1,
        candidates: [{ kind: 'generate', node: 'seed-bm25', score: 1 }],
      }) +
        line({
          type: 'no-op',
          step: 6,
          parent: 'seed-bm25',
          rule: 'quick-exam',
          same: 'seed-bm25',
          reason: "its payloads on the 5 quick-examination tasks are exactly its parent's",
        }) +
        line({ type: 'step-done', step: 6 }),
    );
    await page.waitForSelector('#log tr.action[data-step="6"]');
    expect(await page.locator('#log tr.action[data-step="6"]').textContent()).toContain('no-op: its payloads');
    // It hangs in the tree as a no-op mark, never as a node; the static report carries its panel's details too.
    await page.waitForSelector('#tree .noop[data-step="6"]');
    expect(buildBundle(dir).noops['0']?.step).toBe(6);
    appendFileSync(join(dir, 'journal.jsonl'), '{"type":"action","step":7,"ki');
    await page.waitForSelector('#torn');
    expect(await page.locator('#tree .node').count()).toBe(journalNodes(run));
    await page.close();
  }, 60_000);

  it('refuses paths outside the run folder and requests from other hosts', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'view-paths-')), 'run');
    scratch.push(join(dir, '..'));
    cpSync(run, dir, { recursive: true });
    writeFileSync(join(dir, '..', 'secret.txt'), 'TOP-SECRET-CONTENT');
    symlinkSync(join(dir, '..'), join(dir, 'evidence', 'out'));
    const url = await serve(dir);
    expect((await rawGet(url, '/files/run.json')).status).toBe(200);
    expect((await rawGet(url, '/files/evidence/n1/train-0/images/img-test.png')).status).toBe(200);
    expect((await rawGet(url, '/files/evidence/n1/train-0/images/no-such.png')).status).toBe(404);
    for (const path of [
      '/files/../secret.txt',
      '/files/%2e%2e/secret.txt',
      '/files/..%2fsecret.txt',
      '/files/evidence/out/secret.txt',
      `/files/${encodeURIComponent(join(dir, '..', 'secret.txt'))}`,
      '/../secret.txt',
    ]) {
      const res = await rawGet(url, path);
      expect(res.status, path).toBe(404);
      expect(res.body).not.toContain('TOP-SECRET-CONTENT');
    }
    expect((await rawGet(url, '/api/evidence?node=n1&evidence=..%2F..%2Fsecret.txt')).status).toBe(404);
    expect((await rawGet(url, '/api/node?id=..%2Fsecret')).status).toBe(404);
    expect((await rawGet(url, '/api/run', 'attacker.example:80')).status).toBe(403);
  });

  it('runs from the command line: prints its URL, serves, stops on a signal; a folder that is not a run is an error', async () => {
    const child = spawn(process.execPath, [bin, 'view', run, '--port', '0'], { cwd: repoRoot, env: cliEnv });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const deadline = Date.now() + 60_000;
    while (!/http:\/\/127\.0\.0\.1:\d+\//.test(out) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const url = (/http:\/\/127\.0\.0\.1:\d+\//.exec(out) as RegExpExecArray)[0];
    const runView = (await (await fetch(`${url}api/run`)).json()) as { nodes: unknown[] };
    expect(runView.nodes).toHaveLength(journalNodes(run));
    expect(await (await fetch(url)).text()).toContain('<svg id="tree"');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);

    const notRun = mkdtempSync(join(tmpdir(), 'view-notrun-'));
    scratch.push(notRun);
    const bad = await automemoInProcess('view', notRun);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(`${notRun} is not a run folder: it has no run.json`);
  }, 90_000);
});

describe('automemo report', () => {
  it('prints the run as text', async () => {
    const r = await automemoInProcess('report', run);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/env\s+locomo — offline: evidence recall/);
    expect(r.out).toMatch(/^seed-bm25\s+seed\s+root/m);
    expect(r.out).toMatch(/selected \(lcb\): \S+ — validation \d\.\d{3} \(n=\d+, LCB -?\d\.\d{3}\), test \d\.\d{3}/);
  });

  it('writes one HTML file that renders offline, images inlined or said to be left out', async () => {
    const file = join(base, 'report.html');
    const r = await automemoInProcess('report', run, '--html', file);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`wrote ${file}`);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const outside: string[] = [];
    await page.route('**/*', (route) =>
      route.request().url().startsWith('file:') || route.request().url().startsWith('data:')
        ? route.continue()
        : (outside.push(route.request().url()), route.abort()),
    );
    await page.goto(`file://${file}`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.locator('#tree .node').count()).toBe(journalNodes(run));
    await page.locator('#tree .node[data-id="n1"] .dot').click();
    await page.waitForSelector('#panel .diff .dl.add');
    await page.locator('#panel table.tasks tr.task').first().click();
    await page.waitForFunction(IMAGE_LOADED);
    expect(await page.locator('#report-note').textContent()).toContain('1 images inlined');
    expect(outside).toEqual([]);
    await page.close();

    const small = join(base, 'report-no-images.html');
    const capped = await automemoInProcess('report', run, '--html', small, '--images-mb', '0');
    expect(capped.out).toContain('1 left out by the cap');
    expect(statSync(small).size).toBeLessThan(statSync(file).size);
    const page2 = await browser.newPage();
    await page2.goto(`file://${small}`);
    await page2.waitForSelector('#images-omitted');
    await page2.locator('#tree .node[data-id="n1"] .dot').click();
    await page2.locator('#panel table.tasks tr.task').first().click();
    expect(await page2.locator('#panel .image-missing').textContent()).toContain('left out of this report');
    await page2.close();
  }, 90_000);
});
