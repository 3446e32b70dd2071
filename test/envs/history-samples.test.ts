// What a quick examination of a history benchmark looks at, and how much validation a data benchmark gets by default:
// questions from several worlds and every scenario, late sessions first, with the sessions that hold their evidence;
// and 30 validation questions from 90 questions on when the data states no share.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataEnvironment } from '../../envs/data/environment.ts';
import { historySample, SAMPLE_MAX_TURNS } from '../../envs/history-samples.ts';
import { resolveModels } from '../../foundation/llm/models.ts';
import { ImageStore } from '../../sandbox/primitives/images.ts';

const dir = mkdtempSync(join(tmpdir(), 'history-samples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `worlds` worlds of `sessions` sessions of 3 turns; one question per session, in three scenarios. */
function dataset(worlds: number, sessions: number, extraHeader = {}): string {
  const lines = [JSON.stringify({ type: 'dataset', name: 'hist', scoring: 'evidence-recall', ...extraHeader })];
  for (let w = 0; w < worlds; w++) {
    lines.push(
      JSON.stringify({
        type: 'world',
        id: `w${w}`,
        sessions: Array.from({ length: sessions }, (_, s) => ({
          time: Date.UTC(2024, 0, 1 + s),
          turns: [0, 1, 2].map((t) => ({
            id: `s${s}:${t}`,
            speaker: 'Ana',
            text: `In world ${w}, session ${s} says fact number ${t} about item ${s * 3 + t}.`,
          })),
        })),
        questions: Array.from({ length: sessions }, (_, s) => ({
          id: `w${w}-q${s}`,
          question: `What about item ${s * 3}?`,
          scenario: ['who', 'when', 'what'][s % 3],
          evidence: [`s${s}:0`],
        })),
      }),
    );
  }
  const p = join(dir, `hist-${worlds}-${sessions}-${JSON.stringify(extraHeader).length}.jsonl`);
  writeFileSync(p, `${lines.join('\n')}\n`);
  return p;
}

const open = (path: string) => DataEnvironment.load({ path, models: resolveModels({}, {}), images: new ImageStore() });

describe('the quick examination of a history benchmark', () => {
  it('asks about several worlds and every scenario, late sessions first, and learns the sessions that answer them', async () => {
    const env = open(dataset(6, 12));
    const { episodes, tasks } = await env.samples(5);
    const worlds = new Set(tasks.map((t) => String(t.meta.conversation)));
    expect(worlds.size).toBeGreaterThanOrEqual(2);
    expect(new Set(tasks.map((t) => env.scenario(t.taskId))).size).toBe(3);
    // Validation questions only, and about late sessions more than early ones.
    const validation = new Set((await env.worlds('train')).flatMap((w) => w.tasks.map((t) => t.taskId)));
    for (const t of tasks) expect(validation.has(t.taskId)).toBe(true);
    const sessionOf = (id: string) => Number(/q(\d+)$/.exec(id)?.[1]);
    expect(Math.max(...tasks.map((t) => sessionOf(t.taskId)))).toBeGreaterThanOrEqual(8);
    // Every question's evidence session is learned, in its world.
    for (const t of tasks)
      expect(episodes.map((e) => e.taskId)).toContain(`${t.meta.conversation}/session-${sessionOf(t.taskId) + 1}`);
  });

  it('keeps the sessions within a bound on turns, always those the chosen questions need', () => {
    const world = {
      id: 'big',
      sessionTurns: Array.from({ length: 400 }, () => 20),
      questions: [
        { id: 'early', scenario: 'a', evidenceSessions: [3] },
        { id: 'late', scenario: 'b', evidenceSessions: [390] },
      ],
    };
    const s = historySample([world], 5);
    const turns = (s.worlds[0]?.sessions ?? []).length * 20;
    expect(turns).toBeLessThanOrEqual(SAMPLE_MAX_TURNS);
    expect(s.worlds[0]?.sessions).toContain(3);
    expect(s.worlds[0]?.sessions).toContain(390);
    expect(s.worlds[0]?.questions.sort()).toEqual(['early', 'late']);
  });
});

describe('the default split of a data benchmark', () => {
  it('validates on 30 questions from 90 questions on, and keeps a share the data states', async () => {
    const count = async (p: string) => (await open(p).worlds('train')).reduce((n, w) => n + w.tasks.length, 0);
    expect(await count(dataset(9, 10))).toBeGreaterThanOrEqual(30);
    expect(await count(dataset(4, 10))).toBe(20);
    const stated = await count(dataset(9, 10, { trainShare: 0.1 }));
    expect(stated).toBeLessThan(30);
  });
});
