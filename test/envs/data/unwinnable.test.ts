// Data that would make a question unwinnable or a benchmark unscorable is named where it is loaded: choices that
// read the same or read as nothing leave their question out with a warning naming it (an empty list leaves its world
// out, named); a benchmark where no question has what its scoring needs is the data's problem (exit 1, as the
// README's exit statuses say), never "bad arguments" (exit 2).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadDataset } from '../../../envs/data/load.ts';
import { automemoInProcess } from '../../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'unwinnable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const header = (scoring: string) => JSON.stringify({ type: 'dataset', name: 'mc', scoring, trainShare: 0.5 });
const world = (id: string, questions: unknown[]) =>
  JSON.stringify({ type: 'world', id, sessions: [{ time: '2024-03-04T09:00:00Z', turns: [{ id: `${id}:1`, text: 'We picked Postgres for billing.' }] }], questions });
const mc = (id: string, choices: unknown[]) => ({ id, question: 'Which database was picked?', answers: ['Postgres'], choices });
function file(name: string, lines: string[]): string {
  const p = join(dir, name);
  writeFileSync(p, `${lines.join('\n')}\n`);
  return p;
}

it('names choices that read the same or read as nothing, and leaves their question out', () => {
  const d = loadDataset(
    file('choices.jsonl', [
      header('multiple-choice'),
      world('w1', [mc('same', ['Postgres', 'Postgres']), mc('spaced', ['MySQL', ' postgres ', 'Postgres']), mc('blank', ['  ', 'Postgres']), mc('fine', ['MySQL', 'Postgres'])]),
      world('w2', [mc('none', [])]),
    ]),
  );
  expect(d.worlds.flatMap((w) => w.questions.map((q) => q.id))).toEqual(['fine']);
  const w = d.warnings.join('\n');
  expect(w).toMatch(/choices\.jsonl:2: question "same": choices 1 and 2 read the same \("Postgres"\); the question is left out/);
  expect(w).toMatch(/question "spaced": choices 2 and 3 read the same/);
  expect(w).toMatch(/question "blank": choice 1 is empty; the question is left out/);
  expect(w).toMatch(/choices\.jsonl:3: not a usable world: questions\.0\.choices: Too small/);
});

it('a benchmark where no question has what its scoring needs exits 1 (the data\'s problem), naming it', async () => {
  const p = file('evid-none.jsonl', [header('evidence-recall'), world('w', [{ id: 'q', question: 'Which database?', answers: ['Postgres'] }])]);
  const r = await automemoInProcess('eval', '--env', `data:${p}`, '--program', 'no-memory', '--out', join(dir, 'out'));
  expect(r.err).toMatch(/no question has what scoring "evidence-recall" needs \(evidence turn ids\)/);
  expect(r.code).toBe(1);
});
