// What an analyst reads at a glance, in real Chromium at 1,280 and 1,920 px, on one real run: an offline search on a
// small team-chat benchmark (the data format, answer containment) seeded with reasoning-bank, whose two children are
// both the same idea (reasoning-bank's exact form in lib stages, then a tail) and neither scores above its parent —
// the shape of run the analyst could not read (eight tails on one crossover). Checked: each node says what it is and the three tries read as one
// idea (on the page and in the CLI's step lines), a programs table with test scores ("not run" where none), a point
// per evaluation, the action log's formulas, the task's ground truth beside its payload with the evidence found
// highlighted, the crossover's diagnosis, "winner" only once finished, labels that never overlap, diffs that wrap,
// and a report that is one file saying all this. Screenshots are kept and printed.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamLogs } from '../../bench/benchmarks/team-logs.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../envs/web/browser/browser.ts';
import { readEvidence } from '../../viewer/evidence-view.ts';
import { renderReport } from '../../viewer/report.ts';
import { readRun, type RunView } from '../../viewer/run-model.ts';
import { ViewServer } from '../../viewer/server.ts';
import { automemo } from '../support/cli.ts';
import { openViewerPage, treeTextOverlaps } from './open-page.ts';

// Kept after the test (the screenshots; the runs are removed); a fresh folder per run of the test.
const base = mkdtempSync(join(tmpdir(), 'automemo-analyst-'));
const run = join(base, 'run');
/** The same run cut before its final phase: not finished, so its pick is only leading. */
const unfinished = join(base, 'unfinished');
const report = join(base, 'report.html');
const PARENT = 'seed-reasoning-bank';
const IDEA = 'crossover reasoning-bank → pipeline';
/** Steps of the search: each a child of the seed (the tries of one idea). */
const BUDGET = 2;
const servers: ViewServer[] = [];
let browser: Browser;
let view: RunView;
let stdout: string;
let url: string;
let unfinishedUrl: string;

async function serve(dir: string): Promise<string> {
  const server = new ViewServer(dir);
  servers.push(server);
  return server.listen(0);
}

beforeAll(async () => {
  const data = join(base, 'team-logs.jsonl');
  writeFileSync(data, teamLogs(7, 3, 4));
  const r = automemo('search', '--env', `data:${data}`, '--budget', String(BUDGET), '--seeds', 'reasoning-bank', '--seed', '0', '--out', run);
  expect(r.code, r.err).toBe(0);
  stdout = r.out;
  view = readRun(run);
  // The run as it stood after its last step, before the final phase: its lines after step 3's end are dropped.
  mkdirSync(unfinished);
  cpSync(run, unfinished, { recursive: true });
  const lines = readFileSync(join(run, 'journal.jsonl'), 'utf8').trim().split('\n');
  const end = lines.findIndex((l) => JSON.parse(l).type === 'step-done' && JSON.parse(l).step === BUDGET);
  writeFileSync(join(unfinished, 'journal.jsonl'), `${lines.slice(0, end + 1).join('\n')}\n`);
  writeFileSync(report, renderReport(run).html);
  url = await serve(run);
  unfinishedUrl = await serve(unfinished);
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 60_000 });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  for (const s of servers) await s.close();
  rmSync(run, { recursive: true, force: true });
  rmSync(unfinished, { recursive: true, force: true });
});

const children = () => view.nodes.filter((n) => n.kind === 'child');
const shot = async (page: Page, name: string) => {
  const file = join(base, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`analyst screenshot: ${file}`);
};

describe('a run whose children all tried one idea', () => {
  it('is that run: two children of the seed, one idea, none above its parent, the seed picked and tested', () => {
    const kids = children();
    expect(kids.map((n) => n.parent)).toEqual([PARENT, PARENT]);
    expect(new Set(kids.map((n) => n.edit?.group)).size).toBe(1);
    const parent = view.nodes.find((n) => n.id === PARENT);
    for (const k of kids) expect(k.q).toBeLessThanOrEqual(parent?.q as number);
    expect(view.status).toBe('finished');
    expect(view.winner).toBe(PARENT);
    expect(parent?.testScore).toBeTypeOf('number');
    expect(view.digest.repeated[0]).toMatchObject({ parent: PARENT, label: IDEA, nodes: kids.map((n) => n.id), better: 0 });
  });

  it('says in its step lines what each child changed past the idea they share, and which try of it it is', () => {
    const steps = stdout.split('\n').filter((l) => new RegExp(`^ {2}step \\d/${BUDGET} generate`).test(l));
    expect(steps).toHaveLength(BUDGET);
    // The first child from its start (the mode that chose it, the exact form); later ones from where they part from it.
    expect(steps[0]).toContain("[evidence: on reasoning-bank's exact form, ");
    for (const [i, line] of steps.slice(1).entries()) {
      expect(line).toMatch(/\[[a-z]+: …[a-z-]+: /);
      expect(line).not.toContain("reasoning-bank's exact form");
      expect(line).toContain(`(${IDEA}: try ${i + 2} from ${PARENT})`);
    }
  });
});

for (const width of [1280, 1920]) {
  describe(`automemo view at ${width} px`, () => {
    it('names every node by what it is, groups the tries of one idea, and no label overlaps another', async () => {
      const page = await openViewerPage(browser, url, width);
      for (const n of view.nodes) {
        const what = await page.locator(`#tree .node[data-id="${n.id}"] .what`).evaluate((t) => t.getAttribute('data-full') ?? t.textContent);
        expect(what).toBe(n.kind === 'root' ? 'no memory' : n.kind === 'seed' ? 'seed' : n.edit?.tail);
      }
      // The tails differ: what each try added to the idea they share.
      expect(new Set(children().map((n) => n.edit?.tail)).size).toBe(BUDGET);
      const idea = page.locator('#tree g.idea');
      expect(await idea.count()).toBe(1);
      expect(await idea.getAttribute('data-size')).toBe(String(BUDGET));
      const parentQ = view.nodes.find((n) => n.id === PARENT)?.q as number;
      const below = children().filter((n) => (n.q as number) < parentQ - 1e-12).length;
      const verdict = below === BUDGET ? 'all' : `${below} of ${BUDGET}`;
      expect(await idea.locator('.idea-caption').getAttribute('data-full')).toBe(`${BUDGET} tries of ${IDEA}, ${verdict} below ${PARENT}'s ${parentQ.toFixed(3)}`);
      // Ids are whole (wrapped, never cut here) and nothing drawn in the tree overlaps.
      expect(await page.locator(`#tree .node[data-id="${PARENT}"] .label`).textContent()).toBe(PARENT);
      const { count, overlaps } = await treeTextOverlaps(page);
      expect(count).toBeGreaterThan(4 * view.nodes.length);
      expect(overlaps).toEqual([]);
      // The page does not scroll sideways.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBe(width);
      await shot(page, `view-${width}`);
      await page.close();
    }, 30_000);
  });
}

describe('automemo view', () => {
  it('lists every program with parent, edit, validation ± half-width, evaluations and test ("not run" where none); sorts; marks the pick and its ties', async () => {
    const page = await openViewerPage(browser, url, 1280);
    const rows = page.locator('#programs tr.program-row');
    expect(await rows.count()).toBe(view.nodes.length);
    for (const n of view.nodes) {
      const cells = await page.locator(`#programs tr.program-row[data-id="${n.id}"] td`).allTextContents();
      expect(cells[2]).toBe(n.parent ?? '');
      expect(cells[3]).toContain(n.kind === 'child' ? (n.edit?.label as string) : n.kind === 'seed' ? 'reasoning-bank' : '');
      expect(cells[4]).toBe(`${n.q?.toFixed(3)} ± ${n.ci?.toFixed(3)}`);
      expect(cells[5]).toBe(String(n.n));
      expect(cells[7]).toBe(n.testScore === undefined ? 'not run' : n.testScore.toFixed(3));
    }
    expect(await page.locator(`#programs tr.program-row[data-id="${children()[1]?.id}"] .tries`).textContent()).toBe(`try 2 of ${BUDGET} of this idea from ${PARENT}`);
    // The pick, and the programs the final phase could not tell from it.
    expect(await page.locator('#programs tr.pick').getAttribute('data-id')).toBe(PARENT);
    expect(await page.locator('#programs tr.pick .tag.pick').textContent()).toBe('winner');
    expect((await page.locator('#programs tr.tied').evaluateAll((trs) => trs.map((t) => t.getAttribute('data-id')))).sort()).toEqual([...(view.final?.tied ?? [])].sort());
    // Sorted by test score, best first, then by program name, A to Z.
    await page.locator('#programs th[data-key="test"]').click();
    const byTest = await page.locator('#programs tr.program-row').evaluateAll((trs) => trs.map((t) => t.getAttribute('data-id')));
    const tested = view.nodes.filter((n) => n.testScore !== undefined).sort((a, b) => (b.testScore as number) - (a.testScore as number));
    expect(byTest.slice(0, tested.length)).toEqual(tested.map((n) => n.id));
    await page.locator('#programs th[data-key="id"]').click();
    expect(await page.locator('#programs tr.program-row').evaluateAll((trs) => trs.map((t) => t.getAttribute('data-id')))).toEqual(view.nodes.map((n) => n.id).sort());
    await page.close();
  }, 30_000);

  it('draws every validation evaluation as a point by step, marked by kind, that names its program on hover', async () => {
    const page = await openViewerPage(browser, url, 1280);
    const points = page.locator('#chart .evaluations .pt-eval');
    const scored = view.nodes.flatMap((n) => n.evaluations.filter((e) => e.split === 'train' && e.score !== null));
    expect(await points.count()).toBe(scored.length);
    const kinds = await points.evaluateAll((ps) => ps.map((p) => `${p.getAttribute('data-node')}:${p.getAttribute('data-kind')}`));
    expect(kinds).toEqual(view.points.map((p) => `${p.node}:${p.kind}`));
    expect(kinds.filter((k) => k.endsWith(':child'))).toHaveLength(BUDGET);
    // Every child's point lies on or under the best mean of its step: no child rose above the seed, on the chart too.
    for (const c of children()) {
      const y = Number(await page.locator(`#chart .pt-eval[data-node="${c.id}"]`).getAttribute('cy'));
      const best = Number(await page.locator(`#chart circle.best-mean[data-step="${c.step}"]`).getAttribute('cy'));
      expect(y).toBeGreaterThanOrEqual(best - 0.5);
    }
    const child = children()[BUDGET - 1]?.id as string;
    await page.locator(`#chart .pt-eval[data-node="${child}"]`).hover();
    const tip = (await page.locator('#tooltip').textContent()) ?? '';
    expect(tip).toContain(`${child} (child of ${PARENT}: ${children()[BUDGET - 1]?.edit?.label})`);
    expect(tip).toMatch(/child \(first score\), step \d: 0\.\d{3} on \d+ tasks/);
    await page.close();
  });

  it('names the formulas of the action log\'s columns, with their terms and this run\'s constants', async () => {
    const page = await openViewerPage(browser, url, 1280);
    const text = (await page.locator('#formulas').textContent()) ?? '';
    expect(text).toContain('U_eval = Q + c_e·√(ln N / n)');
    expect(text).toContain('U_gen = Q + G + c_g·√(ln N / (1 + m))');
    expect(text).toContain(`c_e = ${view.ucb.cEval}, c_g = ${view.ucb.cGen}, λ = ${view.ucb.lambda}, κ = ${view.ucb.kappa}`);
    expect(text).toMatch(/Q: .*n: .*N: .*m: .*G = \(S \+ κ·π\) \/ \(m \+ κ\)/);
    expect(await page.locator('#log table.actions th').allTextContents()).toEqual(['step', 'chosen', 'its U', 'best other U_eval', 'best other U_gen', 'outcome (reward)']);
    await page.close();
  });

  it('shows a task\'s ground truth beside its payload, the evidence the payload holds highlighted', async () => {
    // A task of the seed whose payload holds its evidence turn (read as the page reads it).
    const evaluation = view.nodes.find((n) => n.id === PARENT)?.evaluations.find((e) => e.split === 'train');
    const ev = readEvidence(run, evaluation?.evidence as string);
    const task = ev?.tasks.find((t) => t.explanation?.evidenceFound.some(Boolean) && t.explanation.marks.some((m) => m.kind === 'evidence'));
    const missed = ev?.tasks.find((t) => t.explanation && !t.explanation.evidenceFound.some(Boolean));
    expect(task && missed).toBeTruthy();
    const ex = task?.explanation as NonNullable<NonNullable<typeof task>['explanation']>;
    const page = await openViewerPage(browser, url, 1280);
    await page.locator(`#tree .node[data-id="${PARENT}"] .dot`).click();
    await page.waitForSelector(`#panel tr.task[data-task="${task?.taskId}"]`);
    const row = page.locator(`#panel tr.task[data-task="${task?.taskId}"]`);
    expect(await row.locator('td.truth').textContent()).toBe(`${ex.gold.join(' | ')} · 1/1 evidence`);
    await row.click();
    const truth = page.locator('#panel .task-detail .truth-col');
    expect(await truth.locator('.gold').textContent()).toContain(ex.gold[0]);
    expect(await truth.locator('ul.evidence li').first().textContent()).toContain(`${ex.evidence[0]?.id} ${ex.evidence[0]?.text}`);
    expect(await truth.locator('ul.evidence li.held').count()).toBe(1);
    // Beside the payload, not under it.
    const [payloadBox, truthBox] = [await page.locator('#panel .task-detail .payload-col').boundingBox(), await truth.boundingBox()];
    expect(truthBox?.x).toBeGreaterThan((payloadBox?.x ?? 0) + (payloadBox?.width ?? 0) - 1);
    expect(Math.abs((truthBox?.y ?? 0) - (payloadBox?.y ?? 0))).toBeLessThan(5);
    // The evidence turn, highlighted where the payload holds it.
    const marked = await page.locator('#panel .task-detail pre.payload mark.found-evidence').allTextContents();
    expect(marked.map((m) => m.toLowerCase())).toContain((ex.evidence[0]?.text as string).toLowerCase());
    // A task whose payload missed its evidence says so.
    await page.locator(`#panel tr.task[data-task="${missed?.taskId}"]`).click();
    expect(await page.locator(`#panel tr.task[data-task="${missed?.taskId}"] + tr .truth-col ul.evidence li.missed`).count()).toBe(missed?.explanation?.evidence.length);
    await shot(page, 'task-truth');
    await page.close();
  }, 30_000);

  it('reads the diagnosis of a child as what it followed, and wraps the diff\'s lines', async () => {
    const page = await openViewerPage(browser, url, 1280);
    const first = children()[0]?.id as string;
    await page.locator(`#tree .node[data-id="${first}"] .dot`).click();
    await page.waitForSelector('#panel .feedback');
    expect(await page.locator('#panel p.edit-label').textContent()).toBe(`edit: ${children()[0]?.edit?.label}`);
    expect(children()[0]?.edit?.label).toContain(IDEA);
    expect(await page.locator('#panel .feedback p.followed').textContent()).toBe('Followed: evidence stage-insert — not one of the findings below');
    expect(await page.locator('#panel .feedback h4', { hasText: 'Diagnosis' }).textContent()).toBe('Diagnosis (what the evidence showed; not the move made)');
    expect(await page.locator('#panel .feedback li.chosen').count()).toBe(0);
    await page.waitForSelector('#panel .diff .dl.add');
    const wide = await page.locator('#panel .diff .dl, #panel .diff-body').evaluateAll((ls) => ls.filter((l) => l.scrollWidth > l.clientWidth + 1).length);
    expect(wide).toBe(0);
    expect(await page.locator('#panel .diff .dl').evaluateAll((ls) => ls.some((l) => l.getBoundingClientRect().height > 20))).toBe(true);
    await page.close();
  });

  it('says "leading" before the run finished and "winner" only after', async () => {
    const before = readRun(unfinished);
    expect(before.status).not.toBe('finished');
    const page = await openViewerPage(browser, unfinishedUrl, 1280);
    expect(await page.locator('#run-line').textContent()).toContain(`leading ${before.winner}:`);
    expect(await page.locator('#tree .winner-label').textContent()).toBe('leading');
    expect(await page.locator('#programs tr.pick .tag.pick').textContent()).toBe('leading');
    expect(await page.locator('#summary li.headline').textContent()).toMatch(/^Leading /);
    expect(await page.locator('#run-line, #summary, #top, #programs-pane').allTextContents()).not.toContainEqual(expect.stringMatching(/winner/i));
    await page.close();
    const done = await openViewerPage(browser, url, 1280);
    expect(await done.locator('#run-line').textContent()).toContain(`winner ${PARENT}:`);
    expect(await done.locator('#tree .winner-label').textContent()).toBe('winner');
    await done.close();
  });
});

describe('automemo report', () => {
  it('is one file that says, before anything is opened, that the children were one idea, none above the seed, and what the pick scored on test against the baseline', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`file://${report}`);
    await page.waitForSelector('body[data-ready="true"]');
    // Nothing but the file itself (images would be data: URIs).
    expect(requests.filter((u) => !u.startsWith('data:'))).toEqual([`file://${report}`]);
    const summary = (await page.locator('#summary').textContent()) ?? '';
    const seed = view.nodes.find((n) => n.id === PARENT);
    const root = view.nodes.find((n) => n.id === 'root');
    expect(summary).toContain(`Winner ${PARENT}: validation ${seed?.q?.toFixed(3)}, test ${seed?.testScore?.toFixed(3)} — a starting program: no child was picked over it.`);
    expect(summary).toContain(`On the held-out test split: ${PARENT} ${seed?.testScore?.toFixed(3)}, root (no memory) ${root?.testScore?.toFixed(3)}.`);
    expect(summary).toContain(`Children: ${BUDGET} written, ${BUDGET} evaluated; 0 above their parent`);
    expect(summary).toContain(`One idea tried ${BUDGET} times from ${PARENT}: ${IDEA} (${children().map((n) => n.id).join(', ')})`);
    expect(summary).toContain('none above it');
    // The programs table and the tree are the same as the viewer's.
    expect(await page.locator('#programs tr.program-row').count()).toBe(view.nodes.length);
    expect(await page.locator('#tree g.idea').getAttribute('data-size')).toBe(String(BUDGET));
    // So are the tasks' ground truths (the report keeps each explanation once, and the page joins it to each task).
    await page.locator(`#tree .node[data-id="${PARENT}"] .dot`).click();
    await page.waitForSelector('#panel tr.task');
    const truths = await page.locator('#panel tr.task td.truth').allTextContents();
    expect(truths).toHaveLength(view.nodes.find((n) => n.id === PARENT)?.evaluations[0]?.tasks as number);
    for (const t of truths) expect(t).toMatch(/^.+ · [01]\/1 evidence$/);
    await page.locator('#panel tr.task').first().click();
    expect(await page.locator('#panel .truth-col ul.evidence li').count()).toBe(1);
    await shot(page, 'report-1280');
    await page.close();
  });
});
