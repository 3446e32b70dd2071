// The seeded stable split as LoCoMo's, and the rules that read an answer with models (the local OpenAI-compatible
// test server): the executor answers or picks a letter, the judge grades, a failing model is an infrastructure error.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InfraError } from '../../../engine/environment/contract.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { DataEnvironment } from '../../../envs/data/environment.ts';
import { isTrain } from '../../../envs/split.ts';
import { ImageStore } from '../../../sandbox/primitives/images.ts';
import { OpenAITestServer } from '../../support/openai-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'data-split-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const offline = resolveModels({}, {});

function dataset(
  name: string,
  scoring: string,
  questions: Record<string, unknown>[],
  header: Record<string, unknown> = {},
): string {
  const p = join(dir, `${name}.jsonl`);
  const world = {
    type: 'world',
    id: 'w1',
    speakers: ['Ana', 'Ben'],
    sessions: [
      { time: '2024-03-04T09:00:00Z', turns: [{ id: 't1', speaker: 'Ana', text: 'We picked Postgres for billing.' }] },
    ],
    questions,
  };
  writeFileSync(p, `${JSON.stringify({ type: 'dataset', name, scoring, ...header })}\n${JSON.stringify(world)}\n`);
  return p;
}

const many = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `q${i}`,
    question: `question ${i}?`,
    scenario: i % 2 ? 'odd' : 'even',
    answers: ['Postgres'],
    evidence: ['t1'],
  }));
const ids = async (env: DataEnvironment, split: 'train' | 'test') =>
  (await env.worlds(split)).flatMap((w) => w.tasks.map((t) => t.taskId));

describe('the split', () => {
  it('puts each question on the side its seeded hash says, stable when data is added, and reports it per scenario', async () => {
    const small = DataEnvironment.load({
      path: dataset('small', 'answer-containment', many(200)),
      seed: 3,
      models: offline,
      images: new ImageStore(),
    });
    const train = await ids(small, 'train');
    const test = await ids(small, 'test');
    expect(train.length + test.length).toBe(200);
    expect(train.every((id) => isTrain(id, { seed: 3 }))).toBe(true);
    expect(test.some((id) => isTrain(id, { seed: 3 }))).toBe(false);
    // About a fifth to train by default.
    expect(train.length).toBeGreaterThan(20);
    expect(train.length).toBeLessThan(60);
    const split = (small.info().data as { split: { byScenario: Record<string, { train: number; test: number }> } })
      .split.byScenario;
    expect((split.odd?.train ?? 0) + (split.even?.train ?? 0)).toBe(train.length);

    const bigger = DataEnvironment.load({
      path: dataset('bigger', 'answer-containment', many(400)),
      seed: 3,
      models: offline,
      images: new ImageStore(),
    });
    const trainAfter = new Set(await ids(bigger, 'train'));
    expect(train.every((id) => trainAfter.has(id))).toBe(true);

    const otherSeed = DataEnvironment.load({
      path: dataset('small', 'answer-containment', many(200)),
      seed: 4,
      models: offline,
      images: new ImageStore(),
    });
    expect(await ids(otherSeed, 'train')).not.toEqual(train);

    const half = DataEnvironment.load({
      path: dataset('half', 'answer-containment', many(200), { trainShare: 0.5 }),
      seed: 3,
      models: offline,
      images: new ImageStore(),
    });
    expect((await ids(half, 'train')).length).toBeGreaterThan(70);
  });
});

describe('rules with models', () => {
  let server: OpenAITestServer;
  beforeAll(async () => {
    server = await OpenAITestServer.start();
  });
  afterAll(() => server.close());

  const models = (extra: Record<string, string> = {}) =>
    resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_EXECUTOR_MODEL: 'reader-1', ...extra });
  const firstTask = async (env: DataEnvironment) =>
    (await env.worlds('train')).flatMap((w) => w.tasks)[0] as NonNullable<
      Awaited<ReturnType<DataEnvironment['worlds']>>[number]['tasks'][number]
    >;
  const question = {
    id: 'q1',
    question: 'Which database was picked for billing?',
    answers: ['Postgres'],
    evidence: ['t1'],
  };

  it('f1 and exact match score the executor model answer, from the payload alone', async () => {
    const env = DataEnvironment.load({
      path: dataset('f1', 'f1', [question], { trainShare: 0.99 }),
      models: models(),
      images: new ImageStore(),
    });
    expect(env.info().mode).toBe('model');
    server.chatQueue.push({ content: 'postgres' });
    const out = await env.run(await firstTask(env), { text: 'Ana: We picked Postgres for billing.', images: [] });
    expect(out.reward).toBe(1);
    expect(out.trajectory.answer).toBe('postgres');
    const prompt = server.chatRequests().at(-1).messages[0].content as string;
    expect(prompt).toContain('Ana: We picked Postgres for billing.');
    expect(prompt).toContain('a long conversation between Ana and Ben');
    expect(prompt).not.toContain('"Postgres"');

    const exact = DataEnvironment.load({
      path: dataset('exact', 'exact-match', [question], { trainShare: 0.99 }),
      models: models(),
      images: new ImageStore(),
    });
    server.chatQueue.push({ content: 'MySQL' });
    expect((await exact.run(await firstTask(exact), { text: 'x', images: [] })).reward).toBe(0);
  });

  it('multiple choice asks the executor for a letter', async () => {
    const env = DataEnvironment.load({
      path: dataset(
        'mc',
        'multiple-choice',
        [{ ...question, choices: ['MongoDB', 'Postgres', 'SQLite'], correct: 1 }],
        { trainShare: 0.99 },
      ),
      models: models(),
      images: new ImageStore(),
    });
    server.chatQueue.push({ content: 'B' });
    const right = await env.run(await firstTask(env), { text: 'memory', images: [] });
    expect(right).toMatchObject({ reward: 1, trajectory: { answer: 'B. Postgres' } });
    expect(server.chatRequests().at(-1).messages[0].content).toContain('C. SQLite');
    server.chatQueue.push({ content: 'Z' });
    expect(await env.run(await firstTask(env), { text: 'memory', images: [] })).toMatchObject({
      reward: 0,
      trajectory: { answer: '(no choice)' },
    });
  });

  it('llm-judge has the judge grade the answer against the gold answers', async () => {
    const env = DataEnvironment.load({
      path: dataset('judge', 'llm-judge', [question], { trainShare: 0.99 }),
      models: models({ AUTOMEMO_JUDGE_MODEL: 'judge-1' }),
      images: new ImageStore(),
    });
    expect(env.info()).toMatchObject({ mode: 'model', deterministic: false });
    server.chatQueue.push({ content: 'They chose PostgreSQL' }, { content: 'CORRECT' });
    const out = await env.run(await firstTask(env), { text: 'memory', images: [] });
    expect(out.reward).toBe(1);
    const judged = server.chatRequests().at(-1);
    expect(judged.model).toBe('judge-1');
    expect(judged.messages[0].content).toContain('Gold answers: Postgres');
    expect(judged.messages[0].content).toContain('They chose PostgreSQL');
    server.chatQueue.push({ content: 'MySQL' }, { content: 'WRONG' });
    expect((await env.run(await firstTask(env), { text: 'memory', images: [] })).reward).toBe(0);
  });

  it('a model that keeps failing is an infrastructure error, not a wrong answer', async () => {
    const env = DataEnvironment.load({
      path: dataset('infra', 'f1', [question], { trainShare: 0.99 }),
      models: models(),
      images: new ImageStore(),
    });
    server.chatQueue.push({ status: 500 }, { status: 500 }, { status: 500 });
    await expect(env.run(await firstTask(env), { text: 'x', images: [] })).rejects.toBeInstanceOf(InfraError);
  });

  it('offline, a rule that reads an answer says which rule-based reader runs', () => {
    const notes: string[] = [];
    const env = DataEnvironment.load({
      path: dataset('off', 'f1', [question]),
      models: offline,
      images: new ImageStore(),
      onNote: (n) => notes.push(n),
    });
    expect(env.info().mode).toBe('offline');
    expect(notes.join('\n')).toMatch(/scoring "f1" runs offline: an extractive reader .*AUTOMEMO_EXECUTOR_MODEL/);
  });
});
