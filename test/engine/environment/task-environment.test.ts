// The task environment over a small procedural spec: the spec checked with every problem named, roles stable and
// stratified per scenario, what programs see, worlds per split, runs scored by the checker or the agent itself,
// agent and verdict failures named, and the environment's info.
import type { Protocol } from '../../../engine/environment/protocol.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EpisodeStore } from '../../../engine/evaluate/episode-store.ts';
import { InfraError } from '../../../engine/environment/contract.ts';
import { assignRoles, scenarioCounts } from '../../../engine/environment/roles.ts';
import { taskEnvironment } from '../../../engine/environment/task-environment.ts';
import type { TaskEnvironmentSpec, TaskRole } from '../../../engine/environment/task-spec.ts';
import { ImageStore } from '../../../sandbox/primitives/images.ts';
import { type ArithmeticTruth, arithmeticSpec, arithmeticTasks, hooks } from '../../support/arithmetic-spec.ts';

const root = mkdtempSync(join(tmpdir(), 'task-env-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let stores = 0;

async function open(overrides: Partial<TaskEnvironmentSpec<ArithmeticTruth>> = {}, seed = 0, protocol?: Protocol) {
  const h = hooks();
  const images = new ImageStore();
  const spec = await arithmeticSpec(h, overrides);
  const env = taskEnvironment('arith', spec, {
    seed,
    images,
    episodeStore: new EpisodeStore(join(root, `store-${stores++}`)),
    ...(protocol ? { protocol } : {}),
  });
  return { h, images, spec, env };
}

const load = (spec: unknown) => () =>
  taskEnvironment('bad', spec as TaskEnvironmentSpec<unknown>, { seed: 0, images: new ImageStore() });

describe('a task spec is checked when it arrives', () => {
  it('names every missing or wrong part at once', async () => {
    const tasks = await arithmeticTasks(2);
    const broken = [
      { ...tasks[0], id: '' },
      { scenario: 'add', instruction: 'x' },
      { id: 'q', instruction: 'y' },
      { id: 'r', scenario: 's' },
      tasks[1],
      tasks[1],
    ];
    let message = '';
    try {
      load({ tasks: broken, agent: { id: 'a' }, description: 'd' })();
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('environment "bad": the task spec is not usable');
    expect(message).toContain('agent.run must be a function');
    expect(message).toContain('reward is missing');
    expect(message).toContain('tasks[0]: id is empty');
    expect(message).toContain('tasks[1]: id is missing');
    expect(message).toContain('tasks[2]: scenario is missing');
    expect(message).toContain('tasks[3]: instruction is missing');
    expect(message).toContain(`tasks[5].id "${tasks[1]?.id}" is the id of tasks[4] too`);
  });

  it('refuses no tasks, an agent without an id, and wrong field types, naming each', () => {
    expect(
      load({ tasks: [], agent: { id: 'a', run: async () => ({ steps: [] }) }, description: 'd', reward: 'r' }),
    ).toThrow(/tasks is empty/);
    expect(load({ tasks: 'all', agent: { run: async () => ({ steps: [] }) }, description: 'd', reward: 'r' })).toThrow(
      /agent\.id is missing[\s\S]*tasks must be an array/,
    );
    expect(
      load({
        tasks: [
          {
            id: 'a',
            scenario: 's',
            instruction: 'i',
            role: 'train',
            images: [{ bytes: 'png', mime: 'image/png' }],
            meta: 3,
          },
        ],
        agent: { id: 'a', run: async () => ({ steps: [] }) },
        description: 'd',
        reward: 'r',
      }),
    ).toThrow(
      /role must be update, validation or test[\s\S]*tasks\[0\]\.images\.0: bytes must be a Uint8Array[\s\S]*meta must be an object/,
    );
    expect(load(null)).toThrow(/expected tasks \+ agent/);
  });

  it('names the task whose meta (or the spec whose data) is no JSON data: a cycle, or nesting past any use', async () => {
    const tasks = await arithmeticTasks(2);
    const cyclic: Record<string, unknown> = { note: 'x' };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 200_000; i++) deep = { d: deep };
    const spec = (over: object) => ({
      tasks: tasks.map((t, i) => (i === 3 ? { ...t, meta: cyclic } : i === 5 ? { ...t, meta: deep } : t)),
      agent: { id: 'a', run: async () => ({ steps: [] }) },
      description: 'd',
      reward: 'r',
      ...over,
    });
    let message = '';
    try {
      load(spec({ data: { loop: cyclic } }))();
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain(
      `tasks[3].meta (task "${tasks[3]?.id}") is not JSON data: it refers to itself at meta.self`,
    );
    expect(message).toContain(
      `tasks[5].meta (task "${tasks[5]?.id}") is not JSON data: it is nested deeper than 100 levels`,
    );
    expect(message).toContain('data is not JSON data: it refers to itself at data.loop.self');
    expect(message).not.toContain('Converting circular structure');
  });

  it('refuses roles that leave a split without its tasks', async () => {
    const tasks = (await arithmeticTasks(2)).map((t, i) => ({ ...t, role: (i % 2 ? 'update' : 'test') as TaskRole }));
    const spec = await arithmeticSpec(hooks(), { tasks });
    expect(load(spec)).toThrow(/no task has the role validation/);
    expect(load(spec)).not.toThrow(/role update/);
  });
});

describe('roles of tasks that come without one', () => {
  it('are stable (the same tasks in any order get the same roles) and stratified per scenario', async () => {
    const tasks = await arithmeticTasks(12);
    const roles = assignRoles(tasks, 7);
    const byId = new Map(tasks.map((t, i) => [t.id, roles[i]]));
    const shuffled = [...tasks].reverse();
    expect(assignRoles(shuffled, 7)).toEqual(shuffled.map((t) => byId.get(t.id)));
    for (const scenario of ['add', 'sub', 'mul']) {
      const mine = tasks.flatMap((t, i) => (t.scenario === scenario ? [roles[i]] : []));
      const count = (r: TaskRole) => mine.filter((x) => x === r).length;
      // 36 tasks: 6 update and 15 validation in all, shared evenly among three scenarios of 12.
      expect({ update: count('update'), validation: count('validation') }).toEqual({ update: 2, validation: 5 });
    }
    expect(assignRoles(tasks, 8)).not.toEqual(roles);
  });

  it('give validation at least 30 tasks from 90 tasks on, whatever the scenarios and worlds', () => {
    const tasks = (n: number, scenarios: number, worlds = 1) =>
      Array.from({ length: n }, (_, i) => ({
        id: `t${i}`,
        scenario: `s${i % scenarios}`,
        world: `w${Math.floor((i / n) * worlds)}`,
      }));
    const count = (roles: TaskRole[], r: TaskRole) => roles.filter((x) => x === r).length;
    for (const [n, scenarios, worlds] of [
      [90, 1, 1],
      [90, 9, 1],
      [120, 24, 4],
      [400, 7, 20],
      [72, 6, 6],
    ] as const) {
      const roles = assignRoles(tasks(n, scenarios, worlds), 0);
      expect(count(roles, 'validation')).toBeGreaterThanOrEqual(30);
      expect(count(roles, 'test')).toBeGreaterThanOrEqual(count(roles, 'validation'));
      expect(count(roles, 'update')).toBeGreaterThanOrEqual(Math.min(scenarios * worlds, Math.round(n / 6)));
    }
    // Small scenarios are learned from and asked about beside a large one.
    const lopsided = [
      ...tasks(60, 1),
      ...['a', 'b', 'c'].flatMap((s) => [0, 1, 2].map((i) => ({ id: `${s}${i}`, scenario: s }))),
    ];
    const roles = assignRoles(lopsided, 3);
    for (const s of ['a', 'b', 'c']) {
      const mine = lopsided.flatMap((t, i) => (t.scenario === s ? [roles[i]] : []));
      expect(mine.sort()).toEqual(['test', 'update', 'validation']);
    }
  });

  it('follow the counts or the shares a benchmark states', () => {
    const tasks = Array.from({ length: 72 }, (_, i) => ({ id: `t${i}`, scenario: `s${i % 6}` }));
    const count = (roles: TaskRole[], r: TaskRole) => roles.filter((x) => x === r).length;
    const counted = assignRoles(tasks, 0, { update: 6, validation: 40 });
    expect([count(counted, 'update'), count(counted, 'validation'), count(counted, 'test')]).toEqual([6, 40, 26]);
    const shared = assignRoles(tasks, 0, { trainShare: 0.5, validationShare: 0.5 });
    expect([count(shared, 'update'), count(shared, 'validation')]).toEqual([18, 18]);
  });

  it('give every scenario that trains one task to learn from and one to ask about, and keep roles that were given', () => {
    expect(scenarioCounts(5)).toEqual({ update: 1, validation: 1 });
    expect(scenarioCounts(20)).toEqual({ update: 2, validation: 2 });
    expect(scenarioCounts(2)).toEqual({ update: 0, validation: 0 });
    expect(scenarioCounts(10, { trainShare: 0.5, validationShare: 0.2 })).toEqual({ update: 4, validation: 1 });
    const given = [
      { id: 'a', scenario: 's', role: 'test' as const },
      { id: 'b', scenario: 's' },
    ];
    expect(assignRoles(given, 0)[0]).toBe('test');
  });
});

describe('the environment a task spec makes', () => {
  it('shows programs the task without its truth, with images by reference and the context as text', async () => {
    const { env, images } = await open({
      tasks: (await arithmeticTasks()).map((t) => (t.scenario === 'mul' ? { ...t, domain: 'times' } : t)),
    });
    const [train] = await env.worlds('train');
    const [test] = await env.worlds('test');
    // The default split of 30 tasks: a sixth update (5), validation a quarter of the rest but at least 30, at most
    // half (12); under the default protocol the test memory learns from the update episodes only, as validation's.
    expect(train?.tasks).toHaveLength(12);
    expect(train?.episodes).toHaveLength(5);
    expect(test?.tasks).toHaveLength(13);
    expect(test?.episodes.map((e) => e.taskId)).toEqual(train?.episodes.map((e) => e.taskId));
    expect((env.info().data as { protocol: string }).protocol).toBe('update');
    expect(new Set(test?.tasks.map((t) => t.taskId))).not.toContain(train?.tasks[0]?.taskId);
    const t = test?.tasks.find((x) => x.taskId.startsWith('add-') && x.initial.images?.length);
    const i = Number(t?.taskId.split('-')[1]);
    expect(t).toMatchObject({
      env: 'arith',
      domain: 'add',
      instruction: `What is ${3 + i} + ${2 * i + 1}?`,
      initial: { text: `a worksheet, question ${i + 1}` },
      meta: { op: 'add', index: i },
    });
    expect(images.has(t?.initial.images?.[0]?.id as string)).toBe(true);
    expect(test?.tasks.find((x) => x.taskId.startsWith('mul-'))?.domain).toBe('times');
    expect(JSON.stringify([train, test].map((w) => w?.tasks))).not.toMatch(/"answer"|truth/);
    expect(env.scenario('mul-4')).toBe('mul');
    expect(env.scenario('nope')).toBe('unknown');
    expect(env.explain?.(t?.taskId as string)).toEqual({
      question: `What is ${3 + i} + ${2 * i + 1}?`,
      scenario: 'add',
      gold: [String(3 * i + 4)],
    });
  });

  it('keeps worlds apart: one memory per world, learned from its own update tasks, and a quick examination of several', async () => {
    const tasks = (await arithmeticTasks(12)).map((t, i) => ({ ...t, world: `shop-${i % 3}` }));
    const { env } = await open({ tasks });
    const byWorld = new Map(tasks.map((t) => [t.id, t.world]));
    for (const split of ['train', 'test'] as const) {
      const worlds = await env.worlds(split);
      expect(worlds.map((w) => w.id).sort()).toEqual(['shop-0', 'shop-1', 'shop-2']);
      for (const w of worlds) {
        for (const e of w.episodes) expect(byWorld.get(e.taskId)).toBe(w.id);
        for (const t of w.tasks) expect(t.meta.world).toBe(w.id);
      }
    }
    const { episodes, tasks: asked } = await env.samples(5);
    expect(new Set(asked.map((t) => t.meta.world)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(asked.map((t) => env.scenario(t.taskId))).size).toBe(3);
    // The examination learns only what the asked tasks' worlds learn from (their update tasks).
    const worldsAsked = new Set(asked.map((t) => t.meta.world));
    for (const e of episodes) expect(worldsAsked.has(byWorld.get(e.taskId) as string)).toBe(true);
    expect(env.info().data).toMatchObject({ worlds: 3 });
  });

  it('runs a task through the agent and the checker into an outcome with its trajectory', async () => {
    const { env, images } = await open();
    const [test] = await env.worlds('test');
    const task = test?.tasks.find((x) => x.taskId.startsWith('add-') && x.initial.images?.length);
    const sum = String(3 * Number(task?.taskId.split('-')[1]) + 4);
    const out = await env.run(task as never, { text: 'remember: add carefully', images: [] });
    expect(out).toMatchObject({
      reward: 1,
      success: true,
      metrics: { looks: 1 },
      note: `expected ${sum}; memory: used`,
    });
    expect(out.trajectory.answer).toBe(sum);
    expect(out.trajectory.steps.map((s) => s.action)).toEqual(['look at the worksheet', `answer ${sum}`]);
    expect(out.trajectory.steps[1]?.observation).toBe('done');
    expect(images.has(out.trajectory.steps[0]?.images?.[0] as string)).toBe(true);
    expect(out.trajectory.images).toEqual(task?.initial.images?.map((i) => i.id));
  });

  it("scores with the agent's own reward when there is no checker, and names the task when there is neither", async () => {
    const selfScored = await open({
      check: undefined,
      agent: {
        id: 'self',
        run: async (t) => ({ answer: 'x', steps: [], reward: t.id.startsWith('add') ? 0.5 : 1, note: 'read the site' }),
      },
    });
    const [test] = await selfScored.env.worlds('test');
    const add = test?.tasks.find((x) => x.taskId.startsWith('add-')) as never;
    expect(await selfScored.env.run(add, { text: '', images: [] })).toMatchObject({
      reward: 0.5,
      success: false,
      note: 'read the site',
    });
    const unscored = await open({ check: undefined });
    await expect(unscored.env.worlds('train')).rejects.toThrow(
      /task "[a-z]+-\d+" has no score: the spec has no check\(task, run\) and agent arith-agent-v1 set no reward/,
    );
  });

  it('names the task when the checker gives a reward outside [0, 1] or not a number', async () => {
    for (const reward of [Number.NaN, 1.5, -1]) {
      const { env } = await open({ check: () => reward });
      await expect(env.run({ taskId: 'add-3' } as never, { text: '', images: [] })).rejects.toThrow(
        `environment "arith": check gave task "add-3" a reward of ${reward}; rewards are numbers in [0, 1]`,
      );
    }
    const { env } = await open({
      check: () => ({ reward: 0.25, success: true, note: 'close', feedback: 'almost', metrics: { off: 2 } }),
    });
    expect(await env.run({ taskId: 'add-3' } as never, { text: '', images: [] })).toMatchObject({
      reward: 0.25,
      success: true,
      metrics: { looks: 1, off: 2 },
    });
    const [world] = await env.worlds('train');
    expect(world?.episodes[0]?.outcome).toEqual({ reward: 0.25, success: true, note: 'almost' });
  });

  it('turns an agent that throws into an infrastructure failure naming the task', async () => {
    const { env } = await open({
      agent: { id: 'crashy', run: async () => Promise.reject(new TypeError('cannot read x of undefined')) },
    });
    const err = await env.run({ taskId: 'sub-2' } as never, { text: '', images: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InfraError);
    expect((err as Error).message).toBe(
      'environment "arith": its agent crashy threw on task "sub-2": cannot read x of undefined',
    );
    await expect(env.run({ taskId: 'nope' } as never, { text: '', images: [] })).rejects.toThrow(
      'environment "arith" has no task "nope"',
    );
  });

  it('describes itself: mode, reward, budget, agent, split counts and a catalog hash that follows the tasks', async () => {
    let closed = 0;
    const { env } = await open({ close: async () => void closed++ });
    const info = env.info();
    expect(info).toMatchObject({
      name: 'arith',
      mode: 'offline',
      reward: 'exact number',
      budget: { maxChars: 50_000, maxImages: 2 },
      agentId: 'arith-agent-v1',
      deterministic: true,
    });
    expect(info.data).toMatchObject({
      generator: 'arithmetic-v1',
      split: { update: 5, validation: 12, test: 13 },
      catalogHash: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    const changed = await open({
      tasks: (await arithmeticTasks()).map((t) => (t.id === 'sub-9' ? { ...t, instruction: 'What is 12 - 20?' } : t)),
    });
    expect((changed.env.info().data as { catalogHash: string }).catalogHash).not.toBe(
      (info.data as { catalogHash: string }).catalogHash,
    );
    const model = await open({ agent: { id: 'llm', mode: 'model', run: async () => ({ steps: [] }) } });
    expect(model.env.info()).toMatchObject({ mode: 'model', deterministic: false });
    expect(env.describe?.()).toBe('Arithmetic worksheets: add, subtract, multiply.');
    // A quick examination sees every scenario, and up to four episodes per task it asks.
    const samples = await env.samples(3);
    expect(samples.tasks.map((t) => env.scenario(t.taskId)).sort()).toEqual(['add', 'mul', 'sub']);
    expect(samples.episodes.length).toBeGreaterThan(3);
    expect(samples.episodes.length).toBeLessThanOrEqual(12);
    expect(new Set(samples.episodes.map((e) => env.scenario(e.taskId))).size).toBe(3);
    await env.close?.();
    expect(closed).toBe(1);
  });

  it('learns for the test questions from the update and validation episodes under protocol update+validation', async () => {
    const { env } = await open({}, 0, 'update+validation');
    const [train] = await env.worlds('train');
    const [test] = await env.worlds('test');
    expect(test?.episodes).toHaveLength(17);
    expect(test?.episodes.map((e) => e.taskId)).toEqual(
      expect.arrayContaining([...(train?.episodes ?? []), ...(train?.tasks ?? [])].map((e) => e.taskId)),
    );
    expect((env.info().data as { protocol: string }).protocol).toBe('update+validation');
  });

  it("collects for a quick examination and for validation only the update tasks' episodes, and runs none twice", async () => {
    const { h, env } = await open({}, 0, 'update+validation');
    const samples = await env.samples(3);
    const shown = samples.episodes.map((e) => e.taskId).sort();
    expect([...h.runs.keys()].sort()).toEqual(shown);
    // Validation learns from the update tasks alone: only theirs are collected for it; the test split learns from
    // validation tasks too, and collects those then. Each task runs once.
    await env.worlds('train');
    const update = env.info().data as { split: { update: number } };
    expect(h.runs.size).toBe(update.split.update);
    await env.worlds('test');
    expect(h.runs.size).toBe(
      update.split.update + (env.info().data as { split: { validation: number } }).split.validation,
    );
    expect([...h.runs.values()].every((n) => n === 1)).toBe(true);
  });

  it("guides the meta agent: the spec's own words where it gives them, the record shapes and the meta fields its tasks carry", async () => {
    const tasks = (await arithmeticTasks(6)).map((t, i) => ({ ...t, meta: { sheet: `sheet-${i % 2}`, level: i } }));
    const plain = (await open({ tasks })).env.guide?.();
    expect(plain).toMatchObject({ reward: 'exact number', agentAnswers: true });
    expect(plain?.schema).toContain('outcome { reward, success, note');
    expect(plain?.schema).toContain('meta = { sheet: "sheet-0", level: 0 }');
    expect(plain?.reader).toContain('does not say how it reads');
    const told = (
      await open({ tasks, guide: { reward: '1 when the number is exact', reader: 'reads the last line' } })
    ).env.guide?.();
    expect(told).toMatchObject({ reward: '1 when the number is exact', reader: 'reads the last line' });
    expect(told?.schema).toContain('meta = { sheet:');
    expect(
      load({
        tasks,
        agent: { id: 'a', run: async () => ({ steps: [] }) },
        description: 'd',
        reward: 'r',
        guide: { reader: 'x'.repeat(20_000), other: 1 },
      }),
    ).toThrow(/guide\.reader is over 10000 characters|guide must be/);
  });
});
