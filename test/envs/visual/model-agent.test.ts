// The model execution agent against a local OpenAI-compatible server: image parts, memory given once, tools,
// format errors, the image cap, API failures as infrastructure errors, and the environment choosing it.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModels, type RoleModel } from '../../../foundation/llm/models.ts';
import { InfraError } from '../../../engine/environment/contract.ts';
import { capImages } from '../../../foundation/llm/cap-images.ts';
import { ModelAgent } from '../../../envs/visual/agents/model/agent.ts';
import { taskEnvironment } from '../../../engine/environment/task-environment.ts';
import { visualSpec } from '../../../envs/visual/environment.ts';
import type { VisualTruth } from '../../../envs/visual/tasks.ts';
import { closeVisualOcr } from '../../../envs/visual/tools/ocr.ts';
import type { RenderedImage } from '../../../envs/visual/task.ts';
import { ImageStore } from '../../../sandbox/primitives/images.ts';
import { OpenAITestServer } from '../../support/openai-server.ts';

let server: OpenAITestServer;
let image: RenderedImage;
const world = { catalogue: [], pages: new Map() };
beforeAll(async () => {
  server = await OpenAITestServer.start();
  const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#ffffff' } })
    .composite([
      {
        input: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect x="300" y="200" width="80" height="80" fill="#d62728"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer();
  image = { name: 'task.png', png, width: 400, height: 300 };
});
afterAll(async () => {
  await server.close();
  await closeVisualOcr();
});

const model = (): RoleModel =>
  resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_EXECUTOR_MODEL: 'vision-1' }).executor as RoleModel;
const imageParts = (body: any) =>
  body.messages.flatMap((m: any) =>
    Array.isArray(m.content) ? m.content.filter((p: any) => p.type === 'image_url') : [],
  );

describe('visual model agent', () => {
  it('sends the task image as an image part, memory once before the first turn, and tool results back', async () => {
    const store = new ImageStore();
    const memImage = await store.put(image.png);
    server.chatQueue.push(
      {
        content: 'Thought: the red square is bottom-right.\n<tool>zoom [700,600,999,999]</tool>',
        usage: { prompt_tokens: 100, completion_tokens: 10 },
      },
      { content: 'Thought: oops <tool>teleport [1,2,3,4]</tool>', usage: { prompt_tokens: 120, completion_tokens: 8 } },
      { content: 'Thought: done.\n<answer>red</answer>', usage: { prompt_tokens: 140, completion_tokens: 6 } },
    );
    const before = server.chatRequests().length;
    const agent = new ModelAgent(model(), { images: store });
    const run = await agent.run(
      { taskId: 't1', instruction: 'What colour is the square?', images: [image] },
      { text: 'Task: colour of the circle\nActions:\n 1. zoom [0,0,500,500]', images: [memImage] },
      world,
    );
    const sent = server.chatRequests().slice(before);
    expect(sent).toHaveLength(3);
    const first = sent[0];
    expect(first.model).toBe('vision-1');
    expect(first.messages[0].role).toBe('system');
    expect(first.messages[0].content).toContain('zoom [x1,y1,x2,y2]');
    expect(first.messages[1].content[0].text).toMatch(/^Memory from earlier tasks[\s\S]*colour of the circle/);
    expect(first.messages[1].content[1].type).toBe('image_url');
    expect(first.messages[2].content[0].text).toContain('Question: What colour is the square?');
    expect(first.messages[2].content[1].image_url.url).toMatch(/^data:image\/png;base64,/);
    // The zoom result comes back as an image; memory is never repeated.
    expect(imageParts(sent[1])).toHaveLength(3);
    for (const body of sent) expect(JSON.stringify(body.messages).match(/Memory from earlier tasks/g)).toHaveLength(1);
    expect(sent[2].messages.at(-1).content).toMatch(/Format error: unknown tool call "teleport/);
    expect(run.answer).toBe('red');
    expect(run.steps.map((s) => s.action)).toEqual([
      'zoom [700,600,999,999]',
      'teleport [1,2,3,4]',
      '<answer>red</answer>',
    ]);
    expect(run.steps[0]?.image).toBeInstanceOf(Buffer);
    expect(run.steps[1]?.error).toMatch(/unknown tool call/);
    expect(run.tokens).toEqual({ prompt: 360, completion: 24 });
  });

  it('keeps at most 8 images in context, dropping the oldest, and stops after 8 turns without an answer', async () => {
    const store = new ImageStore();
    const mem = [await store.put(image.png), await store.put(await sharp(image.png).flip().toBuffer())];
    const before = server.chatRequests().length;
    server.onChat = () => ({ content: '<tool>zoom [0,0,500,500]</tool>' });
    try {
      const run = await new ModelAgent(model(), { images: store }).run(
        { taskId: 't2', instruction: 'Look around.', images: [image] },
        { text: 'notes', images: mem },
        world,
      );
      expect(run.answer).toBeUndefined();
      expect(run.steps).toHaveLength(8);
    } finally {
      server.onChat = undefined;
    }
    const sent = server.chatRequests().slice(before);
    expect(sent).toHaveLength(8);
    // 2 memory images + the task image + 7 zooms: the two oldest (memory) images give way.
    expect(imageParts(sent[7])).toHaveLength(8);
    const firstUser = sent[7].messages[1].content;
    expect(
      firstUser.filter((p: any) => p.type === 'text' && p.text.includes('removed to keep at most 8 images')),
    ).toHaveLength(2);
    expect(imageParts(sent[5])).toHaveLength(8);
    expect(JSON.stringify(sent[7].messages.at(-1)).includes('One turn left')).toBe(true);
  });

  it('turns a failing API into an infrastructure error', async () => {
    server.chatQueue.push({ status: 500 }, { status: 500 }, { status: 500 });
    await expect(
      new ModelAgent(model()).run({ taskId: 't3', instruction: 'x', images: [image] }, { text: '', images: [] }, world),
    ).rejects.toBeInstanceOf(InfraError);
  });

  it('drops the oldest images first', () => {
    const msgs: any[] = [1, 2, 3].map((i) => ({
      role: 'user',
      content: [{ type: 'image_url', image_url: { url: `u${i}` } }],
    }));
    capImages(msgs, 2, 'removed');
    expect(msgs.map((m) => m.content[0].type)).toEqual(['text', 'image_url', 'image_url']);
  });

  it('runs a task of the environment end to end: image parts out, tool results back, the checker scores the answer', async () => {
    const images = new ImageStore();
    const spec = visualSpec({ models: { executor: model() }, images, families: ['microtext'], instances: 10 });
    const env = taskEnvironment('visual', spec, { seed: 0, images });
    const e = spec.tasks.find((x) => x.role === 'test' && x.scenario === 'microtext/serial');
    if (!e) throw new Error('no serial task');
    const truth = e.truth as VisualTruth;
    const value = (truth.answer as { value: string }).value;
    server.chatQueue.push(
      { content: `Thought: the main unit is bottom-right.\n<tool>${truth.oracle[0]}</tool>` },
      { content: `<answer>${value}</answer>` },
    );
    const before = server.chatRequests().length;
    const task = { taskId: e.id, env: 'visual', instruction: e.instruction, initial: {}, meta: {} };
    const out = await env.run(task, {
      text: 'Task: an earlier serial number\nActions:\n 1. ocr [666,666,998,998]',
      images: [],
    });
    const sent = server.chatRequests().slice(before);
    expect(out.reward).toBe(1);
    expect(out.trajectory.steps.map((s) => s.action)).toEqual([truth.oracle[0], `<answer>${value}</answer>`]);
    expect(out.trajectory.steps[0]?.observation).toContain(value);
    expect(out.trajectory.tokens?.prompt).toBeGreaterThan(0);
    expect(imageParts(sent[0])).toHaveLength(1);
    expect(sent[1].messages.at(-1).content[0].text).toContain(`S/N ${value}`);
  });

  it('is the agent of the environment when an executor model is configured', async () => {
    const images = new ImageStore();
    const env = taskEnvironment(
      'visual',
      visualSpec({ models: { executor: model() }, images, families: ['microtext'], instances: 10 }),
      { seed: 0, images },
    );
    expect(env.info()).toMatchObject({ mode: 'model', agentId: 'visual-model-agent:vision-1', deterministic: false });
  });
});
