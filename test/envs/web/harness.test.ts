// The browser harness in real Chromium: scripted episodes over a small site, requests outside 127.0.0.1 blocked,
// a fresh context per episode, errors that cost a step but not the episode, the 15-step limit, marked screenshots,
// and a browser that dies mid-episode reported as an infrastructure failure (the next episode relaunches it).
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { WebAgent } from '../../../envs/web/agents/agent.ts';
import { closeBrowsers, sharedBrowser } from '../../../envs/web/browser/browser.ts';
import { instantiate } from '../../../envs/web/catalog.ts';
import { runEpisode, runOracle, ScriptAgent } from '../../../envs/web/episode.ts';
import { MAX_STEPS } from '../../../envs/web/session.ts';
import type { WebSite } from '../../../envs/web/site.ts';
import { InfraError } from '../../../engine/environment/contract.ts';
import { tinySite } from '../../support/web-site.ts';

const site = tinySite as unknown as WebSite;
const empty = { text: '', images: [] };
const input = (taskId: string) => ({ taskId, site: 'tiny', siteTitle: 'Tiny', instruction: 'test' });
const spec = (template = 'price', start = '/') => ({
  ...instantiate(site, site.templates.find((t) => t.id === template) as WebSite['templates'][number], 0, 0),
  start,
});

afterAll(() => closeBrowsers());

describe('web harness', { timeout: 120_000 }, () => {
  it('plays scripted procedures to a correct answer and a checked database change', async () => {
    expect(await runOracle(tinySite, 'price', 0)).toMatchObject({
      correct: true,
      steps: [
        expect.stringMatching(/^Type \[e\d+\] textbox "Search"; Kettle$/),
        expect.stringMatching(/link "Kettle"$/),
        'ANSWER; $12.5',
      ],
    });
    expect(await runOracle(tinySite, 'note', 1)).toMatchObject({ correct: true, note: 'done: note saved' });
  });

  it('blocks every request outside 127.0.0.1 and gives each episode a fresh context', async () => {
    const r = await runEpisode(site, spec('price', '/outside'), new ScriptAgent(['ANSWER; x']), input('a'), empty, {
      seed: 0,
      screenshots: 'none',
    });
    expect(r.blocked.some((u) => u.startsWith('http://example.com/'))).toBe(true);
    expect(r.blocked.some((u) => u.startsWith('https://cdn.example.org/'))).toBe(true);
    // The home page sets a cookie; a second episode starts without it.
    const first = await runEpisode(
      site,
      spec(),
      new ScriptAgent(['Click link "Home"', 'ANSWER; x']),
      input('b'),
      empty,
      { seed: 0, screenshots: 'none' },
    );
    expect(first.steps[0]?.snapshot).toContain('Welcome back');
    const second = await runEpisode(site, spec(), new ScriptAgent(['ANSWER; x']), input('c'), empty, {
      seed: 0,
      screenshots: 'none',
    });
    expect(second.first.snapshot).toContain('First visit');
  });

  it('turns bad actions into step errors the agent reads, and stops at the step limit', async () => {
    const lines = [
      'Click link "Nowhere"',
      'Dance wildly',
      'Select textbox "Search"; x',
      ...Array.from({ length: 20 }, () => 'Scroll [WINDOW]; down'),
    ];
    const r = await runEpisode(site, spec(), new ScriptAgent(lines), input('d'), empty, {
      seed: 0,
      screenshots: 'none',
    });
    expect(r.steps[0]?.error).toMatch(
      /no link named "Nowhere" on this page \(links here: "Home", "Kettle", "Toaster"\)/,
    );
    expect(r.steps[1]?.error).toMatch(/^Format ERROR/);
    expect(r.steps[2]?.error).toMatch(/not a select/);
    expect(r.steps).toHaveLength(MAX_STEPS);
    expect(r.steps.at(-1)?.action).toBe('ANSWER; ');
    expect(r.check.correct).toBe(false);
  });

  it('reports a click on an element under a modal quickly, naming the cover', async () => {
    const started = Date.now();
    const r = await runEpisode(
      site,
      spec('price', '/covered'),
      new ScriptAgent(['Click button "Behind"', 'Click button "Accept cookies"', 'ANSWER; x']),
      input('e'),
      empty,
      { seed: 0, screenshots: 'none' },
    );
    expect(r.steps[0]?.error).toMatch(/covered|did not respond/);
    expect(r.steps[1]?.error).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('draws numbered boxes on a screenshot after every step', async () => {
    const r = await runEpisode(
      site,
      spec(),
      new ScriptAgent(['Click generic "Refine ▸"', 'ANSWER; x']),
      input('f'),
      empty,
      { seed: 0, screenshots: 'every' },
    );
    const shot = r.steps[0]?.screenshot as Buffer;
    const meta = await sharp(shot).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 1024, height: 768 });
    expect(r.first.screenshot).toBeDefined();
    // The disclosure opened: its link is now in the snapshot.
    expect(r.steps[0]?.snapshot).toContain('link "Sort by price"');
  });

  it('shows a handler error as a page and goes on', async () => {
    const r = await runEpisode(site, spec('price', '/boom'), new ScriptAgent(['ANSWER; x']), input('g'), empty, {
      seed: 0,
      screenshots: 'none',
    });
    expect(r.first.snapshot).toContain('handler exploded');
  });

  it('reports a browser that dies mid-episode as an infrastructure failure, then relaunches', async () => {
    const killer: WebAgent = {
      id: 'killer',
      deterministic: true,
      mode: 'offline',
      async run(_i, _p, session) {
        await (await sharedBrowser()).close();
        await session.act('Click link "Kettle"');
        return { memoryUse: 'none' };
      },
    };
    await expect(
      runEpisode(site, spec(), killer, input('h'), empty, { seed: 0, screenshots: 'none' }),
    ).rejects.toBeInstanceOf(InfraError);
    expect(await runOracle(tinySite, 'price', 1)).toMatchObject({ correct: true });
  });
});
