// A gain that does not survive another reader is flagged: a program written to game the first multiple-choice reader
// (its payload names one choice and nothing else, so the word-share reader takes it) beats the best design under that
// reader, and the study's second reader and evidence recall show it does not hold.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { study } from '../../api/index.ts';
import { writeChoices } from '../../bench/benchmarks/choices.ts';
import { secondChoice, secondContainment } from '../../envs/scoring/second-reader.ts';
import { pickChoice } from '../../envs/data/scoring.ts';

const dir = mkdtempSync(join(tmpdir(), 'study-readers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Remembers every line; for a question with choices, returns the choice the latest line naming one names — and
// nothing else: no sentence, no person, no context. The first reader takes whatever choice the payload names.
const GAMING = `import { defineMemo } from 'automemo/contract';
const lines: string[] = [];
export default defineMemo({
  update(episode) {
    for (const s of episode.steps) lines.push(s.action);
  },
  retrieve(task) {
    const choices = (task.meta as { choices?: string[] }).choices ?? [];
    for (let i = lines.length - 1; i >= 0; i--) {
      const named = choices.filter((c) => lines[i].includes(c));
      if (named.length === 1) return { text: named[0], images: [] };
    }
    return { text: choices[0] ?? '', images: [] };
  },
});
`;

describe('gains that survive another reader', () => {
  it('the second reader reads statements about the question, the first reads words anywhere', () => {
    const q = 'Which city did Mia move to?';
    const choices = ['Lisbon', 'Porto', 'Oslo'];
    expect(pickChoice(choices, 'Porto')).toBe(1);
    expect(secondChoice(q, choices, 'Porto')).toBe(-1);
    const memory = 'Mia: We looked at flats in Lisbon and Porto this weekend.\nTom: Nice.\nMia: We signed for a flat in Porto, moving next month!';
    expect(secondChoice(q, choices, memory)).toBe(1);
    // The first reader's tie goes to the earlier choice; the second takes the latest statement.
    expect(pickChoice(choices, memory)).toBe(0);
    expect(secondChoice(q, choices, 'Mia: Lisbon or Porto, we cannot decide.')).toBe(-1);
    expect(secondContainment('Which database was picked for billing?', ['Postgres'], 'Postgres')).toBe(0);
    expect(secondContainment('Which database was picked for billing?', ['Postgres'], 'Ana: for billing we use Postgres.')).toBe(1);
  });

  it('a study flags the gain of a program that games the first reader', async () => {
    const data = join(dir, 'choices.jsonl');
    writeChoices(data, 5);
    // Six of its worlds: enough questions to tell the programs apart, few enough to stay quick.
    const [header, ...worlds] = readFileSync(data, 'utf8').trim().split('\n');
    writeFileSync(data, `${[header, ...worlds.slice(0, 6)].join('\n')}\n`);
    const program = join(dir, 'gaming.ts');
    writeFileSync(program, GAMING);
    const out = join(dir, 'study');
    const r = await study({ env: [`data:${data}`], out, repeat: 1, budget: 0, meta: 'offline', workers: 0, seeds: [program], designs: ['bm25'], transfer: false, minEvalTasks: 0 });
    const env = r.analysis.envs[0];
    const pick = env?.picks[0];
    expect(pick?.node).toBe('seed-gaming');
    // Under the search's reader the pick is ahead of the best design.
    expect(pick?.vsBestTest?.mean).toBeGreaterThan(0);
    const second = pick?.readers.find((c) => c.reader === 'second-reader');
    const recall = pick?.readers.find((c) => c.reader === 'evidence-recall');
    expect(second?.pick).toBe(0);
    expect(recall?.pick).toBe(0);
    expect(second?.best).toBeGreaterThan(0);
    expect(second?.flag).toMatch(/beats .* under the search's reader .* but not under second-reader/);
    expect(recall?.flag).toMatch(/not under evidence-recall/);
    const md = readFileSync(join(out, 'study.md'), 'utf8');
    expect(md).toContain('Under other readers');
    expect(md).toMatch(/\*\*Flag:\*\* the pick of seed 0 beats/);
  });
});
