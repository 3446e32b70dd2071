import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateProgram } from '../../../engine/evaluate/evaluate.ts';
import { EvidenceWriter, EXPLAIN_ITEM_CHARS, EXPLAIN_ITEMS } from '../../../engine/evaluate/evidence.ts';
import type { Explanation } from '../../../engine/environment/explanation.ts';
import { OutcomeCache } from '../../../engine/evaluate/outcome-cache.ts';
import { compileProgram } from '../../../sandbox/compile.ts';
import { ExtractiveChat } from '../../../sandbox/primitives/chat.ts';
import type { TextEmbedder } from '../../../sandbox/primitives/embed.ts';
import { ImageStore } from '../../../sandbox/primitives/images.ts';
import { closeHostServices, type HostServices } from '../../../sandbox/primitives/index.ts';
import { offlineServices } from '../../support/services.ts';
import { ToyEnvironment } from '../../support/toy-env.ts';

const fixture = async (name: string) => {
  const r = await compileProgram({ entryPath: join(import.meta.dirname, 'fixtures', name) });
  if (!r.ok) throw new Error(r.issues.map((i) => i.message).join('\n'));
  return r.program;
};

afterAll(() => closeHostServices());

describe('update-then-retrieve evaluation', () => {
  it('updates every episode, retrieves every task and scores the mean reward, per world and scenario', async () => {
    const env = new ToyEnvironment();
    const r = await evaluateProgram(await fixture('remember.ts'), { env, split: 'test', services: offlineServices() });
    expect(r.tasks).toHaveLength(8);
    expect(r.score).toBe(1);
    expect(r.stats.byScenario).toEqual({ w1: { tasks: 4, score: 1 }, w2: { tasks: 4, score: 1 } });
    expect(r.worlds.map((w) => [w.world, w.episodes, w.updateErrors.length])).toEqual([
      ['w1', 2, 0],
      ['w2', 2, 0],
    ]);
    expect(r.stats.retrieveP50Ms).toBeGreaterThan(0);
  });

  it('scores program failures 0 with the reason, and a dead sandbox fails the rest of its world only', async () => {
    const env = new ToyEnvironment();
    const r = await evaluateProgram(await fixture('flaky.ts'), { env, split: 'test', services: offlineServices(), limits: { callCpuMs: 300 } });
    const byId = Object.fromEntries(r.tasks.map((t) => [t.taskId, t]));
    expect(byId['w1/door-1']?.reward).toBe(1);
    expect(byId['w1/door-2']).toMatchObject({ reward: 0, programError: expect.stringContaining('no idea about door 2') });
    expect(byId['w1/door-3']).toMatchObject({ reward: 0, programError: expect.stringMatching(/used more than 300 ms of CPU/) });
    expect(byId['w1/door-4']).toMatchObject({ reward: 0, programError: expect.stringMatching(/not retrieved: .*CPU/) });
    expect(r.worlds.find((w) => w.world === 'w1')?.fatal?.kind).toBe('cpu-timeout');
    // World 2 has doors 6-9: its own sandbox is unaffected.
    expect(r.tasks.filter((t) => t.world === 'w2').every((t) => t.reward === 1)).toBe(true);
    expect(r.stats.programFailed).toBe(3);
  });

  it('retries infrastructure failures and never scores them as the program\'s', async () => {
    const env = new ToyEnvironment();
    env.infraFailures.set('w1/door-1', 2); // recovers on the third try
    env.infraFailures.set('w1/door-4', 99); // never recovers
    const r = await evaluateProgram(await fixture('remember.ts'), { env, split: 'test', services: offlineServices(), infraRetries: 2 });
    const byId = Object.fromEntries(r.tasks.map((t) => [t.taskId, t]));
    expect(byId['w1/door-1']?.reward).toBe(1);
    expect(byId['w1/door-4']).toMatchObject({ reward: null, infraError: expect.stringContaining('after 3 attempts') });
    expect(r.stats.infraFailed).toBe(1);
    expect(r.stats.scored).toBe(7);
    expect(r.score).toBe(1);
  });

  it('retries a world whose update hit an upstream API failure', async () => {
    let calls = 0;
    const flakyEmbedder: TextEmbedder = {
      id: 'flaky',
      offline: false,
      async embed(texts) {
        calls++;
        if (calls === 1) throw new OpenAI.InternalServerError(500, undefined, 'upstream exploded', new Headers());
        return texts.map(() => new Float32Array([1, 0, 0]));
      },
    };
    const services: HostServices = { embedder: flakyEmbedder, chat: new ExtractiveChat(), images: new ImageStore(), modes: { embed: 'flaky', memo: 'offline' } };
    const events: string[] = [];
    const r = await evaluateProgram(await fixture('embeds.ts'), {
      env: new ToyEnvironment(),
      split: 'test',
      services,
      concurrency: 1,
      onProgress: (e) => e.kind === 'retry' && events.push(e.reason),
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toContain('upstream exploded');
    expect(r.worlds[0]?.attempts).toBe(2);
    expect(r.worlds[0]?.updateErrors).toEqual([]);
    expect(r.score).toBe(1);
  });

  it('freezes memory after the update phase', async () => {
    const r = await evaluateProgram(await fixture('writes-in-retrieve.ts'), { env: new ToyEnvironment(), split: 'test', services: offlineServices() });
    expect(r.tasks[0]?.programError).toMatch(/kv\.set: memory is frozen during retrieve/);
  });

  it('cuts over-budget payloads to the budget and flags them', async () => {
    const r = await evaluateProgram(await fixture('verbose.ts'), { env: new ToyEnvironment({ maxChars: 400, maxImages: 0 }), split: 'test', services: offlineServices() });
    expect(r.tasks.every((t) => t.truncated)).toBe(true);
    expect(r.stats.truncated).toBe(8);
    expect(r.tasks[0]?.payloadChars).toBeGreaterThan(400);
    // The codes sit after 800 characters of padding, so the cut payload misses them.
    expect(r.score).toBe(0);
  });

  it('reuses outcomes of a deterministic agent for the same payload, and writes evidence as it goes', async () => {
    const env = new ToyEnvironment();
    const cache = new OutcomeCache();
    const dir = mkdtempSync(join(tmpdir(), 'evidence-'));
    try {
      const program = await fixture('remember.ts');
      const first = await evaluateProgram(program, { env, split: 'test', services: offlineServices(), outcomeCache: cache, evidence: new EvidenceWriter(dir) });
      const runs = env.runs;
      const second = await evaluateProgram(program, { env, split: 'test', services: offlineServices(), outcomeCache: cache });
      expect(env.runs).toBe(runs);
      expect(second.tasks.every((t) => t.cached)).toBe(true);
      expect(second.score).toBe(first.score);
      const lines = readFileSync(join(dir, 'tasks.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(lines).toHaveLength(8);
      expect(lines[0]).toMatchObject({ reward: 1, payload: { text: expect.stringContaining('The code for door-') } });
      expect(readFileSync(join(dir, 'worlds.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps each task\'s explanation in its evidence (a reader needs not the environment\'s data), bounded, a failing one named', async () => {
    class Explained extends ToyEnvironment {
      explain(taskId: string): Explanation {
        if (taskId === 'w1/door-1') return { gold: Array.from({ length: 3 * EXPLAIN_ITEMS }, () => 'x'.repeat(3 * EXPLAIN_ITEM_CHARS)) };
        if (taskId === 'w1/door-2') throw new Error('no such door in the answer key');
        return { question: `${taskId}?`, gold: ['the code'], evidence: [{ id: taskId, text: 'the code is written on it' }] };
      }
    }
    const dir = mkdtempSync(join(tmpdir(), 'evidence-explain-'));
    try {
      await evaluateProgram(await fixture('remember.ts'), { env: new Explained(), split: 'test', services: offlineServices(), evidence: new EvidenceWriter(dir) });
      const lines = readFileSync(join(dir, 'tasks.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      const byId = Object.fromEntries(lines.map((l) => [l.taskId, l]));
      expect(byId['w1/door-3'].explain).toEqual({ question: 'w1/door-3?', gold: ['the code'], evidence: [{ id: 'w1/door-3', text: 'the code is written on it' }] });
      expect(byId['w1/door-1'].explain.gold).toHaveLength(EXPLAIN_ITEMS);
      expect(byId['w1/door-1'].explain.gold[0]).toMatch(/… \[\d+ more characters\]$/);
      expect(byId['w1/door-1'].explain.gold[0].length).toBeLessThan(EXPLAIN_ITEM_CHARS + 40);
      expect(byId['w1/door-2'].explain).toEqual({ gold: [], notes: ['explain failed: no such door in the answer key'] });
      // An environment that explains nothing leaves the field out.
      const plain = mkdtempSync(join(tmpdir(), 'evidence-plain-'));
      await evaluateProgram(await fixture('remember.ts'), { env: new ToyEnvironment(), split: 'test', services: offlineServices(), evidence: new EvidenceWriter(plain) });
      expect(readFileSync(join(plain, 'tasks.jsonl'), 'utf8')).not.toContain('"explain"');
      rmSync(plain, { recursive: true, force: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
