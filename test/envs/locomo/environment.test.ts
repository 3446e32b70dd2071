import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { defaultLocomoDir, LocomoEnvironment } from '../../../envs/locomo/environment.ts';
import { loadConversations, parseSessionDate } from '../../../envs/locomo/load.ts';
import { InfraError } from '../../../engine/environment/contract.ts';
import { OpenAITestServer } from '../../support/openai-server.ts';

const offline = () => LocomoEnvironment.load({ models: resolveModels({}, {}) });

describe('LoCoMo loading', () => {
  it('reads the shipped conversations with their sessions, turns and questions', () => {
    const r = loadConversations(defaultLocomoDir());
    expect(r.conversations.map((c) => c.id)).toEqual(['26', '30', '41']);
    expect(r.conversations.reduce((n, c) => n + c.turns.size, 0)).toBe(1451);
    expect(r.conversations.reduce((n, c) => n + c.questions.length, 0)).toBe(497);
    // "D8:6; D9:17" is two evidence turns, not one broken id.
    const q = r.conversations[0]?.questions.find((x) => x.evidence.includes('D8:6') && x.evidence.includes('D9:17'));
    expect(q).toBeDefined();
  });

  it('parses session dates', () => {
    expect(new Date(parseSessionDate('1:56 pm on 8 May, 2023') as number).toISOString()).toBe('2023-05-08T13:56:00.000Z');
    expect(new Date(parseSessionDate('12:09 am on 13 September, 2023') as number).toISOString()).toBe('2023-09-13T00:09:00.000Z');
    expect(parseSessionDate('someday')).toBeUndefined();
  });

  it('never puts ground truth in an episode or a task', async () => {
    const env = offline();
    const raw = JSON.parse(readFileSync(join(defaultLocomoDir(), '26.json'), 'utf8'));
    const text = JSON.stringify([...(await env.worlds('train')), ...(await env.worlds('test'))].filter((w) => w.id === '26'));
    expect(text).not.toContain(raw.session_1_summary.slice(0, 60));
    expect(text).not.toContain('"query"');
    expect(text).not.toContain('transgender pride flag mural'); // an image search query from the data
    for (const q of raw.qa.slice(0, 40)) {
      if (q.answer && String(q.answer).length > 12) expect(text).not.toContain(String(q.answer));
    }
    expect(text).not.toMatch(/"evidence"|"category"|"answer"/);
  });

  it('reads a folder in the benchmark\'s locomo10.json shape and reports bad files without dropping the rest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'locomo-'));
    try {
      const flat = JSON.parse(readFileSync(join(defaultLocomoDir(), '30.json'), 'utf8'));
      const { qa, ...conversation } = flat;
      writeFileSync(join(dir, 'locomo10.json'), JSON.stringify([{ sample_id: 'conv-99', conversation, qa }]));
      writeFileSync(join(dir, 'broken.json'), '{ not json');
      writeFileSync(join(dir, 'empty.json'), JSON.stringify({ speaker_a: 'A', speaker_b: 'B', qa: [] }));
      const r = loadConversations(dir);
      expect(r.conversations.map((c) => c.id)).toEqual(['conv-99']);
      expect(r.warnings.some((w) => w.startsWith('broken.json skipped: not JSON'))).toBe(true);
      expect(r.warnings.some((w) => w.includes('empty.json') && w.includes('no sessions'))).toBe(true);
      expect(() => loadConversations(join(dir, 'nope'))).toThrow(/cannot read LoCoMo data folder/);
      rmSync(join(dir, 'locomo10.json'));
      expect(() => loadConversations(dir)).toThrow(/no LoCoMo conversations could be read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('LoCoMo environment', () => {
  it('splits each conversation\'s questions into disjoint train and test, stable under added data', async () => {
    const env = offline();
    const train = (await env.worlds('train')).flatMap((w) => w.tasks.map((t) => t.taskId));
    const test = (await env.worlds('test')).flatMap((w) => w.tasks.map((t) => t.taskId));
    expect(train.filter((id) => test.includes(id))).toEqual([]);
    expect(train.length + test.length).toBe(495); // two questions have no evidence turns to score offline
    expect(train.length / (train.length + test.length)).toBeGreaterThan(0.15);
    const dir = mkdtempSync(join(tmpdir(), 'locomo-more-'));
    try {
      cpSync(defaultLocomoDir(), dir, { recursive: true });
      const extra = JSON.parse(readFileSync(join(defaultLocomoDir(), '26.json'), 'utf8'));
      writeFileSync(join(dir, '99.json'), JSON.stringify(extra));
      const bigger = LocomoEnvironment.load({ models: resolveModels({}, {}), dataDir: dir });
      const train2 = (await bigger.worlds('train')).filter((w) => w.id !== '99').flatMap((w) => w.tasks.map((t) => t.taskId));
      expect(train2).toEqual(train);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads AUTOMEMO_LOCOMO_DIR when it opens, not when automemo was imported', async () => {
    const given = process.env.AUTOMEMO_LOCOMO_DIR;
    const dir = mkdtempSync(join(tmpdir(), 'locomo-var-'));
    try {
      cpSync(join(defaultLocomoDir(), '26.json'), join(dir, '26.json'));
      process.env.AUTOMEMO_LOCOMO_DIR = dir;
      const env = LocomoEnvironment.load({ models: resolveModels({}, {}) });
      expect((await env.worlds('train')).map((w) => w.id)).toEqual(['26']);
    } finally {
      if (given === undefined) delete process.env.AUTOMEMO_LOCOMO_DIR;
      else process.env.AUTOMEMO_LOCOMO_DIR = given;
      rmSync(dir, { recursive: true, force: true });
    }
    // Put back: the next open reads the folder it read before.
    expect((await offline().worlds('train')).length).toBeGreaterThan(1);
  });

  it('scores a payload offline by evidence recall', async () => {
    const env = offline();
    const [world] = await env.worlds('test');
    const task = world?.tasks[0];
    if (!task) throw new Error('no task');
    const q = env.question(task.taskId);
    const conv = env.data.conversations.find((c) => c.id === world?.id);
    const evidenceText = (q?.evidence ?? []).map((id) => conv?.turns.get(id)?.text).join('\n\n');
    const full = await env.run(task, { text: evidenceText, images: [] });
    expect(full.reward).toBe(1);
    expect(full.metrics.evidenceRecall).toBe(1);
    const none = await env.run(task, { text: 'nothing useful', images: [] });
    expect(none.reward).toBe(0);
    expect(none.note).toMatch(/missing/);
  });
});

describe('LoCoMo with an executor model', () => {
  let server: OpenAITestServer;
  beforeAll(async () => {
    server = await OpenAITestServer.start();
  });
  afterAll(() => server.close());

  it('scores the model answer by F1 and reports evidence recall beside it', async () => {
    const models = resolveModels({}, { OPENAI_BASE_URL: server.baseURL, AUTOMEMO_EXECUTOR_MODEL: 'reader-1' });
    const env = LocomoEnvironment.load({ models });
    expect(env.info().mode).toBe('model');
    const task = (await env.worlds('test')).flatMap((w) => w.tasks).find((t) => env.question(t.taskId)?.category === 4);
    if (!task) throw new Error('no single-hop task');
    const gold = env.question(task.taskId)?.answer as string;
    server.chatQueue.push({ content: gold });
    const out = await env.run(task, { text: 'some memory', images: [] });
    expect(out.reward).toBe(1);
    expect(out.metrics).toMatchObject({ f1: 1, evidenceRecall: 0 });
    expect(out.trajectory.answer).toBe(gold);
    const prompt = server.chatRequests().at(-1).messages[0].content as string;
    expect(prompt).toContain('some memory');
    expect(prompt).toContain(env.question(task.taskId)?.question);
    expect(prompt).not.toContain(gold);
    server.chatQueue.push({ status: 500 }, { status: 500 }, { status: 500 });
    await expect(env.run(task, { text: 'x', images: [] })).rejects.toBeInstanceOf(InfraError);
  });
});
