// The viewer as an analyst sees it, in real Chromium at 1,280 and 1,440 px, on a real small run: a search on the toy
// environment whose meta model (a local OpenAI-compatible server) writes two children that change nothing before one
// that does, and whose tasks ask hostile, overlong questions. Checked on the page: every column of the action log
// inside the viewport, each task's question shown (as text, shortened), every bound within [0, 1] and no -0.00 on the
// chart, colours on the absolute scale, and the no-op children drawn and marked. Screenshots are kept and printed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartialRecorder } from '../../memo-programs/contract.ts';
import { CostLedger } from '../../foundation/llm/ledger.ts';
import { resolveModels } from '../../foundation/llm/models.ts';
import { ModelMetaAgent } from '../../engine/meta/model/agent.ts';
import type { Split, World } from '../../engine/environment/contract.ts';
import { QUESTION_CHARS } from '../../engine/evaluate/evidence.ts';
import { runSearch } from '../../engine/search/search.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../envs/web/browser/browser.ts';
import { resolveProgram } from '../../memo-programs/registry.ts';
import { closeHostServices } from '../../sandbox/primitives/index.ts';
import { readRun, type RunView } from '../../viewer/run-model.ts';
import { ViewServer } from '../../viewer/server.ts';
import { programAnalysisReply, withAnalysis } from '../support/meta-replies.ts';
import { OpenAITestServer } from '../support/openai-server.ts';
import { purposeOf } from '../support/recorded-session.ts';
import { offlineServices } from '../support/services.ts';
import { ToyEnvironment } from '../support/toy-env.ts';
import { createToyRun } from '../support/toy-run.ts';
import { openViewerPage, treeTextOverlaps } from './open-page.ts';
import { loadPageScripts } from './page-script.ts';

// Kept after the test (only the screenshots: the run is removed); a fresh folder per run, so two runs at once (two
// checkouts on one machine) never share it.
const base = mkdtempSync(join(tmpdir(), 'automemo-viewer-browser-'));
const run = join(base, 'run');
/** A seed of the user's own, by path: its id is as long as realistic ids get in the action log's columns. */
const SEED = 'seed-recency-weighted-trajectory-retrieval';
const seedFile = join(base, 'recency-weighted-trajectory-retrieval.ts');
const WIDTHS = [1280, 1440];
/** Even doors ask a question that would be markup if the page wrote it as HTML and runs far past what evidence keeps. */
const question = (door: number) =>
  door % 2
    ? `What is the code for door-${door}?`
    : `<img src=x onerror="document.body.dataset.xss='1'"> What is the code for door-${door}? ${'Answer with the code word only. '.repeat(200)}`;

/**
 * The toy environment with every door a validation task (10, half per evaluation: two samples, so re-evaluations
 * compete in the action log) and the questions above.
 */
class HostileQuestions extends ToyEnvironment {
  override async worlds(split: Split): Promise<World[]> {
    const [train, test] = [await super.worlds('train'), await super.worlds('test')];
    const ask = (t: PartialRecorder) => ({ ...t, instruction: question(Number(t.taskId.split('door-')[1])) });
    return split === 'test'
      ? test
      : train.map((w, i) => ({ ...w, tasks: [...w.tasks, ...(test[i]?.tasks ?? [])].map(ask) }));
  }
}

let browser: Browser;
let server: OpenAITestServer | undefined;
let viewer: ViewServer | undefined;
let url: string;
let view: RunView;

beforeAll(async () => {
  server = await OpenAITestServer.start();
  // The first generation: a comment-only change (its payloads are its parent's), then the parent again (the same
  // program), then a real change. Every later one: the real change again — a no-op three times over.
  const seed = readFileSync(resolveProgram('trajectory-retrieval').path, 'utf8');
  writeFileSync(seedFile, seed);
  const different =
    "import { defineMemo } from 'automemo/contract';\nexport default defineMemo({ update() {}, retrieve() { return { text: 'nothing', images: [] }; } });\n";
  const programs = [seed.replace('retrieve(', '/* a comment only */ retrieve('), seed, different];
  server.onChat = (body) => {
    const purpose = purposeOf(body);
    if (purpose === 'analysis')
      return {
        content: JSON.stringify({ relevance: [], weaknesses: ['w'], suggestions: [{ priority: 1, change: 'c' }] }),
      };
    if (purpose === 'synthesis') return { content: JSON.stringify({ summary: 's', changes: [{ change: 'c' }] }) };
    if (purpose === 'program-analysis') return { content: programAnalysisReply(body, 'Tidy the retrieval.', 'c') };
    return {
      content: withAnalysis(
        body,
        `\`\`\`ts\n// file: index.ts\n${programs.shift() ?? different}\`\`\``,
        'Tidy the retrieval.',
        'c',
      ),
    };
  };
  const { folder, opts } = createToyRun(run, { budget: 3, seeds: [seedFile], meta: 'model', evalFraction: 0.5 });
  const models = resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_META_MODEL: 'meta-1' });
  await runSearch({
    env: new HostileQuestions({ maxChars: 2000, maxImages: 0 }),
    services: offlineServices(),
    meta: new ModelMetaAgent(models.meta as never, 'metadata'),
    folder,
    options: opts,
    models,
    ledger: new CostLedger(),
  });
  view = readRun(run);
  viewer = new ViewServer(run);
  url = await viewer.listen(0);
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 60_000 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  await server?.close();
  await closeHostServices();
  rmSync(run, { recursive: true, force: true });
  rmSync(seedFile, { force: true });
});

const open = (width: number) => openViewerPage(browser, url, width);

/** Every number in `text` that stands for a bound: "a … b" intervals and "LCB x". */
function bounds(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/(-?\d+\.\d+) … (-?\d+\.\d+)/g)) out.push(Number(m[1]), Number(m[2]));
  for (const m of text.matchAll(/LCB (-?\d+\.\d+)/g)) out.push(Number(m[1]));
  return out;
}

describe('the viewer at 1,280 and 1,440 px', () => {
  it('is a run worth checking: no-op children, bounds past [0, 1] before clipping, a hostile question', () => {
    expect(view.nodes.map((n) => n.id)).toEqual(['root', SEED, 'n1']);
    expect(view.noops.length).toBeGreaterThanOrEqual(2);
    expect(view.actions.some((a) => a.candidates.some((c) => c.kind === 'evaluate' && c.node === SEED))).toBe(true);
    const raw = view.nodes
      .filter((n) => n.q !== null && n.ci !== null)
      .flatMap((n) => [(n.q as number) - (n.ci as number), (n.q as number) + (n.ci as number)]);
    expect(raw.some((b) => b < 0)).toBe(true);
    expect(raw.some((b) => b > 1)).toBe(true);
    expect(question(0).length).toBeGreaterThan(QUESTION_CHARS);
  });

  for (const width of WIDTHS) {
    it(`shows every column, each question, bounds within [0, 1] and the no-ops at ${width} px`, async () => {
      const page = await open(width);

      // Every column of the action log inside the viewport and its pane, no row scrolled sideways; the page does not
      // scroll sideways either.
      const boxes = await page.$$eval('#log table.actions tr.action > td, #log table.actions th', (cells) =>
        cells.map((c) => c.getBoundingClientRect().toJSON() as { left: number; right: number; width: number }),
      );
      const pane = await page.locator('#log').boundingBox();
      expect(boxes).toHaveLength(6 + 6 * view.actions.length);
      for (const b of boxes) {
        expect(b.left).toBeGreaterThanOrEqual((pane?.x ?? 0) - 0.5);
        expect(b.right).toBeLessThanOrEqual(Math.min(width, (pane?.x ?? 0) + (pane?.width ?? 0)) + 0.5);
        expect(b.width).toBeGreaterThan(20);
      }
      expect(
        await page.evaluate(
          '[document.documentElement.scrollWidth, document.getElementById("log").scrollWidth <= document.getElementById("log").clientWidth]',
        ),
      ).toEqual([width, true]);
      const first = view.noops[0]?.step;
      expect(await page.locator(`#log tr.action[data-step="${first}"]`).textContent()).toContain('→ n1: ');
      expect(await page.locator(`#log tr.action[data-step="${first}"]`).textContent()).toContain('(after 2 no-ops)');

      // The no-op children: one mark each under its parent, marked as such.
      const noops = page.locator('#tree .noop');
      expect(await noops.count()).toBe(view.noops.length);
      for (let i = 0; i < view.noops.length; i++) {
        const mark = page.locator(`#tree .noop[data-noop="${i}"]`);
        expect(await mark.locator('.noop-sign').textContent()).toBe('=');
        expect(await mark.locator('.label').textContent()).toBe(`no-op · ${view.noops[i]?.step}`);
      }
      expect(await page.locator('#tree path.edge-noop').count()).toBe(view.noops.length);
      // The seed's long id and the no-op marks beside it: no text of the tree overlaps another.
      expect((await treeTextOverlaps(page)).overlaps).toEqual([]);
      expect(await page.locator(`#tree .node[data-id="${SEED}"] .label`).getAttribute('data-full')).toBe(SEED);
      await page.locator('#tree .noop[data-noop="1"]').click();
      await page.waitForSelector('#panel .noop-reason');
      expect(await page.locator('#panel h2').first().textContent()).toBe(`No-op child, step ${first}`);
      expect(await page.locator('#panel').textContent()).toContain(`the same program as ${SEED}`);
      // Its own files (the parent's program again), against its parent's.
      await page.waitForSelector('#panel .diff-summary');
      expect(await page.locator('#panel .diff-summary').textContent()).toBe(
        `${SEED} and no-op of step ${first} have the same source`,
      );
      // The step's first try was written at the child's name and moved aside before the child was: its files are kept.
      await page.locator('#tree .noop[data-noop="0"]').click();
      await page.waitForFunction(
        "!(document.querySelector('#panel .diff-summary')?.textContent ?? 'same source').includes('same source')",
      );
      expect(await page.locator('#panel').textContent()).not.toContain('its files are not kept');

      // Bounds: every node's tooltip, the panel's score table, the chart's axis.
      const shown: number[] = [];
      for (const n of view.nodes) {
        await page.locator(`#tree .node[data-id="${n.id}"] .dot`).hover();
        const tip = (await page.locator('#tooltip').textContent()) ?? '';
        expect(tip).toMatch(/confidence interval \d\.\d{3} … \d\.\d{3}/);
        shown.push(...bounds(tip));
      }
      const ticks = await page.locator('#chart .tick.y').allTextContents();
      expect(ticks).toEqual(['0.00', '0.25', '0.50', '0.75', '1.00']);
      expect(await page.locator('#chart').textContent()).not.toMatch(/-0\.0/);

      // Colours on the absolute scale: each node's fill is its mean's colour on 0..1, and the legend draws that scale.
      const page$ = loadPageScripts<{ scoreColour(q: number | null): string }>('dom.js');
      for (const n of view.nodes)
        expect(await page.locator(`#tree .node[data-id="${n.id}"] .dot`).getAttribute('fill')).toBe(
          page$.scoreColour(n.q),
        );
      expect(await page.locator('#legend .scale').getAttribute('data-low')).toBe('0');
      expect(await page.locator('#legend .scale-tick').allTextContents()).toEqual([
        '0.00',
        '0.25',
        '0.50',
        '0.75',
        '1.00',
      ]);

      // Each task's question, as text, shortened in its row and whole (as evidence keeps it) in its detail.
      await page.locator(`#tree .node[data-id="${SEED}"] .dot`).click();
      await page.waitForSelector('#panel table.tasks tr.task');
      shown.push(...bounds((await page.locator('#panel table.scores').textContent()) ?? ''));
      const rows = page.locator('#panel table.tasks tr.task');
      expect(await rows.count()).toBe(5);
      const doors: number[] = [];
      for (let i = 0; i < 5; i++) {
        const door = Number((await rows.nth(i).getAttribute('data-task'))?.split('door-')[1]);
        const shown = (await rows.nth(i).locator('td.question').textContent()) ?? '';
        expect(shown.length).toBeLessThanOrEqual(140);
        expect(shown).toContain(`What is the code for door-${door}?`);
        expect(shown.startsWith('<img src=x onerror=')).toBe(door % 2 === 0);
        doors.push(door);
      }
      const even = doors.find((d) => d % 2 === 0) as number;
      await page.locator(`#panel tr.task[data-task$="/door-${even}"]`).click();
      const whole = (await page.locator('#panel .task-question').textContent()) ?? '';
      expect(whole).toContain(question(even).slice(0, QUESTION_CHARS));
      expect(whole).toContain(`[${question(even).length - QUESTION_CHARS} more characters]`);
      expect(await page.locator('#panel table.tasks img').count()).toBe(0);
      expect(await page.evaluate('document.body.dataset.xss ?? null')).toBeNull();

      expect(shown.length).toBeGreaterThan(3 * view.nodes.length);
      for (const b of shown) expect(b >= 0 && b <= 1, `bound ${b}`).toBe(true);

      const file = join(base, `viewer-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(`viewer screenshot at ${width} px: ${file}`);
      await page.close();
    }, 30_000);
  }
});
