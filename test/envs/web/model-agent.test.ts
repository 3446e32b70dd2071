// The WebVoyager-style model agent against a local OpenAI-compatible server, in real Chromium: the snapshot and a
// marked screenshot per step, memory once before the first step, at most 3 screenshots in context, format errors
// fed back, a failing API as an infrastructure failure, and the environment choosing it when a model is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModels, type RoleModel } from '../../../foundation/llm/models.ts';
import { InfraError } from '../../../engine/environment/contract.ts';
import { ModelAgent } from '../../../envs/web/agents/model/agent.ts';
import { closeBrowsers } from '../../../envs/web/browser/browser.ts';
import { instantiate } from '../../../envs/web/catalog.ts';
import { runEpisode } from '../../../envs/web/episode.ts';
import { taskEnvironment } from '../../../engine/environment/task-environment.ts';
import { webSpec } from '../../../envs/web/environment.ts';
import type { WebSite } from '../../../envs/web/site.ts';
import { ImageStore } from '../../../sandbox/primitives/images.ts';
import { OpenAITestServer } from '../../support/openai-server.ts';
import { tinySite } from '../../support/web-site.ts';

let server: OpenAITestServer;
beforeAll(async () => {
  server = await OpenAITestServer.start();
});
afterAll(async () => {
  await server.close();
  await closeBrowsers();
});

const site = tinySite as unknown as WebSite;
const model = (): RoleModel =>
  resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_EXECUTOR_MODEL: 'browser-1' }).executor as RoleModel;
const imageParts = (body: any) =>
  body.messages.flatMap((m: any) =>
    Array.isArray(m.content) ? m.content.filter((p: any) => p.type === 'image_url') : [],
  );
const lastText = (body: any) => {
  const m = body.messages.at(-1);
  return typeof m.content === 'string' ? m.content : m.content.map((p: any) => p.text ?? '').join('\n');
};
const refOf = (text: string, role: string, name: string) =>
  text.match(new RegExp(`${role} "${name}" \\[ref=(\\w+)\\]`))?.[1];

describe('web model agent', { timeout: 120_000 }, () => {
  it('acts from the snapshot, gets memory once and at most 3 screenshots, and reads format errors back', async () => {
    const spec = instantiate(site, site.templates[0] as WebSite['templates'][number], 0, 0);
    let turn = 0;
    server.onChat = (body) => {
      turn++;
      const text = lastText(body);
      if (turn === 1)
        return { content: `Thought: search for it.\nAction: Type [${refOf(text, 'textbox', 'Search')}]; Kettle` };
      if (turn === 2) return { content: 'Thought: hmm.\nAction: Fly to the moon' };
      if (turn <= 5) return { content: 'Thought: look around.\nAction: Scroll [WINDOW]; down' };
      if (turn === 6) return { content: `Thought: open it.\nAction: Click [${refOf(text, 'link', 'Kettle')}]` };
      return { content: 'Thought: the price is shown.\nAction: ANSWER; $12.5' };
    };
    const before = server.chatRequests().length;
    const memory = {
      text: 'Task: On Tiny, what is the price of Toaster?\nOutcome: SUCCESS\nActions:\n 1. Type textbox "Search"; Toaster',
      images: [],
    };
    const r = await runEpisode(
      site,
      spec,
      new ModelAgent(model()),
      { taskId: 'm1', site: 'tiny', siteTitle: 'Tiny', instruction: spec.instruction },
      memory,
      { seed: 0, screenshots: 'every' },
    );
    server.onChat = undefined;
    const sent = server.chatRequests().slice(before);
    expect(sent).toHaveLength(7);
    expect(sent[0].model).toBe('browser-1');
    expect(sent[0].messages[0].content).toContain('Imagine you are a robot browsing the web');
    expect(sent[0].messages[1].content[0].text).toMatch(/^Memory from earlier tasks[\s\S]*price of Toaster/);
    expect(sent[0].messages[2].content[0].text).toContain(
      `Now given a task: ${spec.instruction} Please interact with Tiny`,
    );
    expect(sent[0].messages[2].content[1].text).toMatch(
      /^Step 1 of 15\. Page: Home · Tiny[\s\S]*textbox "Search" \[ref=e\d+\]/,
    );
    expect(sent[0].messages[2].content[2].image_url.url).toMatch(/^data:image\/jpeg;base64,/);
    for (const body of sent) {
      expect(JSON.stringify(body.messages).match(/Memory from earlier tasks/g)).toHaveLength(1);
      expect(imageParts(body).length).toBeLessThanOrEqual(3);
    }
    expect(imageParts(sent[6])).toHaveLength(3);
    expect(JSON.stringify(sent[6].messages)).toContain('(Omitted in context.)');
    expect(lastText(sent[2])).toMatch(/Your last action failed: Format ERROR/);
    expect(r.steps.map((s) => s.action)).toEqual([
      expect.stringMatching(/^Type \[e\d+\] textbox "Search"; Kettle$/),
      'Fly to the moon',
      'Scroll [WINDOW]; down',
      'Scroll [WINDOW]; down',
      'Scroll [WINDOW]; down',
      expect.stringMatching(/^Click \[f\d+e\d+\] link "Kettle"$/),
      'ANSWER; $12.5',
    ]);
    expect(r.check.correct).toBe(true);
    expect(r.tokens?.prompt).toBeGreaterThan(0);
  });

  it('asks for the answer once the steps are spent, and ends the episode with it', async () => {
    const spec = instantiate(site, site.templates[0] as WebSite['templates'][number], 0, 0);
    server.onChat = (body) => ({
      content: lastText(body).startsWith('No steps left')
        ? 'Thought: out of steps.\nAction: ANSWER; $12.5'
        : 'Thought: patience.\nAction: Wait',
    });
    const before = server.chatRequests().length;
    const r = await runEpisode(
      site,
      spec,
      new ModelAgent(model()),
      { taskId: 'm3', site: 'tiny', siteTitle: 'Tiny', instruction: spec.instruction },
      { text: '', images: [] },
      { seed: 0 },
    );
    server.onChat = undefined;
    const sent = server.chatRequests().slice(before);
    // 14 steps, the 15th reply refused (only the answer is left), then the answer asked for.
    expect(sent).toHaveLength(16);
    expect(lastText(sent[15])).toBe('No steps left: reply with ANSWER; your answer now.');
    expect(sent[0].messages.map((m: any) => m.role)).toEqual(['system', 'user']);
    expect(r.steps).toHaveLength(15);
    expect(r.steps.slice(0, 14).every((s) => s.action === 'Wait')).toBe(true);
    expect(r.steps[14]).toMatchObject({ action: 'ANSWER; $12.5', thought: 'step limit reached' });
    expect(r.check.correct).toBe(true);
  });

  it('turns a failing API into an infrastructure error', async () => {
    const spec = instantiate(site, site.templates[0] as WebSite['templates'][number], 0, 0);
    server.chatQueue.push({ status: 500 }, { status: 500 }, { status: 500 });
    await expect(
      runEpisode(
        site,
        spec,
        new ModelAgent(model()),
        { taskId: 'm2', site: 'tiny', siteTitle: 'Tiny', instruction: spec.instruction },
        { text: '', images: [] },
        { seed: 0 },
      ),
    ).rejects.toBeInstanceOf(InfraError);
  });

  it('is the agent of the environment when an executor model is configured, with screenshots every step', async () => {
    const env = taskEnvironment('web', webSpec({ models: { executor: model() }, sites: ['code'], instances: 10 }), {
      seed: 0,
      images: new ImageStore(),
    });
    expect(env.info()).toMatchObject({
      mode: 'model',
      agentId: 'web-model-agent:browser-1',
      deterministic: false,
      data: { screenshots: 'every' },
    });
  });
});
