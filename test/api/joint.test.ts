// A joint search over two built-in environments and one data benchmark (--env locomo,visual:mazes,data:…): one
// memory serves all three, the validation samples hold each source's share, and the search reports each source's
// score, whose mean is the pick's score.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../foundation/paths.ts';
import { search } from '../../api/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'api-joint-'));
// The worker is shared with other files: the LoCoMo folder this file points at is put back as it was.
const givenLocomo = process.env.AUTOMEMO_LOCOMO_DIR;
afterAll(() => {
  if (givenLocomo === undefined) delete process.env.AUTOMEMO_LOCOMO_DIR;
  else process.env.AUTOMEMO_LOCOMO_DIR = givenLocomo;
  rmSync(dir, { recursive: true, force: true });
});

// One LoCoMo conversation (the environment module reads the folder when it loads, after this line).
const locomo = join(dir, 'locomo');
mkdirSync(locomo);
copyFileSync(join(repoRoot, 'envs', 'locomo', 'data', '26.json'), join(locomo, '26.json'));
process.env.AUTOMEMO_LOCOMO_DIR = locomo;

const turn = (w: string, i: number, text: string) => ({ id: `${w}:${i}`, speaker: i % 2 ? 'Ana' : 'Ben', text });
function tinyData(): string {
  const worlds = ['w1', 'w2'].map((w, k) =>
    JSON.stringify({
      type: 'world',
      id: w,
      speakers: ['Ana', 'Ben'],
      sessions: [
        {
          time: '2024-03-04T09:00:00Z',
          turns: [
            turn(w, 1, `We picked ${k ? 'Postgres' : 'SQLite'} for billing.`),
            turn(w, 2, `The staging server is ${k ? 'kestrel' : 'osprey'}.`),
          ],
        },
        {
          time: '2024-03-11T09:00:00Z',
          turns: [turn(w, 3, `Carla joins as the ${k ? 'designer' : 'tester'} next week.`)],
        },
      ],
      questions: [
        {
          id: `${w}-db`,
          question: 'Which database was picked for billing?',
          answers: [k ? 'Postgres' : 'SQLite'],
          evidence: [`${w}:1`],
        },
        {
          id: `${w}-server`,
          question: 'What is the staging server called?',
          answers: [k ? 'kestrel' : 'osprey'],
          evidence: [`${w}:2`],
        },
        {
          id: `${w}-carla`,
          question: 'What role does Carla join as?',
          answers: [k ? 'designer' : 'tester'],
          evidence: [`${w}:3`],
        },
        {
          id: `${w}-db2`,
          question: 'Which database does billing use?',
          answers: [k ? 'Postgres' : 'SQLite'],
          evidence: [`${w}:1`],
        },
      ],
    }),
  );
  const path = join(dir, 'team.jsonl');
  writeFileSync(
    path,
    `${[JSON.stringify({ type: 'dataset', name: 'team', scoring: 'answer-containment', trainShare: 0.5 }), ...worlds].join('\n')}\n`,
  );
  return path;
}

describe('a joint search', () => {
  it("runs over two built-in environments and a data benchmark, and reports each source's score", async () => {
    const r = await search({
      env: `locomo,visual:mazes,data:${tinyData()}`,
      out: join(dir, 'run'),
      budget: 0,
      seeds: ['bm25'],
      meta: 'offline',
      workers: 0,
      minEvalTasks: 0,
      evalFraction: 1,
      test: false,
    });
    expect(r.env.name).toBe('locomo+visual+team');
    expect(r.env.reward).toMatch(/each source weighs the same/);
    const by = r.sources?.validation ?? {};
    expect(Object.keys(by).sort()).toEqual(['locomo', 'team', 'visual']);
    const scores = Object.values(by) as number[];
    expect(scores.every((x) => typeof x === 'number')).toBe(true);
    expect(r.winner.validation).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 9);
    // A visual family's reference agent reads every image of its update and validation tasks: the mazes family is the
    // cheapest (~10 s of CPU; lookup's ~20 s took this file to 57 s of the default 60 s in a full run).
  }, 180_000);
});
