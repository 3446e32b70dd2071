// A run folder is only ever a run folder: search() refuses a folder that holds anything automemo did not write there
// (a user's folder, the root), writing nothing into it; two searches on one folder in one process are one too many
// (the second is refused by the folder's lock); a search aborted at any point leaves a folder its resume finishes,
// every evaluation counted once.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineEnvironment, type JournalEvent, search, UsageError } from '../../api/index.ts';
import { readJournal } from '../../run-store/journal.ts';
import { replay } from '../../engine/search/replay.ts';
import { repoRoot } from '../../foundation/paths.ts';
import { automemoInProcess } from '../support/cli.ts';
import { ToyEnvironment } from '../support/toy-env.ts';

const dir = mkdtempSync(join(tmpdir(), 'search-out-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const toy = defineEnvironment({ name: 'toy-doors', summary: 'door codes', load: () => new ToyEnvironment() });
// No test-split evaluation at the end: what these tests look at is the folder.
const base = { env: toy, budget: 1, seeds: ['bm25'], meta: 'offline' as const, test: false };

/** Every file and folder under `root`, relative, sorted. */
function listing(root: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[]).sort();
}

describe('a folder that is not a run folder', () => {
  it('is refused by the library and the CLI, and nothing is written into it', async () => {
    const user = join(dir, 'my-notes');
    mkdirSync(join(user, 'programs'), { recursive: true });
    writeFileSync(join(user, 'thesis.md'), 'years of work');
    writeFileSync(join(user, 'programs', 'mine.ts'), 'export {}');
    const before = listing(user);
    await expect(search({ ...base, out: user })).rejects.toThrow(UsageError);
    await expect(search({ ...base, out: user })).rejects.toThrow(`${user} exists and is not empty, and holds no run: choose another out folder, or empty it`);
    const cli = await automemoInProcess('search', '--env', `data:${join(repoRoot, 'examples', 'qa-data', 'team-notes.jsonl')}`, '--budget', '0', '--seeds', 'bm25', '--out', user);
    expect(cli.code).toBe(2);
    expect(cli.err).toContain('exists and is not empty, and holds no run');
    expect(listing(user)).toEqual(before);
    expect(readFileSync(join(user, 'thesis.md'), 'utf8')).toBe('years of work');
  });

  it('the root folder is refused, and nothing is written there', async () => {
    const before = readdirSync('/').sort();
    await expect(search({ ...base, out: '/' })).rejects.toThrow('/ exists and is not empty, and holds no run');
    expect(readdirSync('/').sort()).toEqual(before);
    expect(existsSync('/run.json')).toBe(false);
  });

  it('a file is refused as a folder', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    await expect(search({ ...base, out: file })).rejects.toThrow(`${file} is not a folder`);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('an empty folder is taken', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const r = await search({ ...base, budget: 0, out: empty });
    expect(r.runFolder).toBe(empty);
    expect(existsSync(join(empty, 'run.json'))).toBe(true);
  });
});

describe('two searches on one folder at once', () => {
  it('new searches: one runs, the other is refused naming the folder in use; run.json is the one that ran', async () => {
    const out = join(dir, 'twice-new');
    const settled = await Promise.allSettled([search({ ...base, out, seed: 1 }), search({ ...base, out, seed: 2 })]);
    const ran = settled.filter((s) => s.status === 'fulfilled');
    const refused = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(ran).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.reason).toBeInstanceOf(UsageError);
    expect(String(refused[0]?.reason?.message)).toMatch(/is in use by another search|already holds a run/);
    const info = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(readJournal(join(out, 'journal.jsonl')).events.filter((e) => e.type === 'start')).toHaveLength(1);
    expect([1, 2]).toContain(info.options.seed);
  });

  it('resumes: one continues, the other is refused, and the journal is one search\'s', async () => {
    const out = join(dir, 'twice-resume');
    await search({ ...base, budget: 0, out });
    const settled = await Promise.allSettled([search({ out, resume: true, budget: 2 }), search({ out, resume: true, budget: 2 })]);
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    const refused = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(String(refused?.reason?.message)).toContain(`${out} is in use by another search in this process`);
    const events = readJournal(join(out, 'journal.jsonl')).events;
    expect(events.filter((e) => e.type === 'start' && e.resumed)).toHaveLength(1);
    expect(events.filter((e) => e.type === 'step-done' && e.step === 2)).toHaveLength(1);
  });
});

describe('a search aborted while it writes', () => {
  for (const at of ['start', 'node', 'evaluation', 'quick-exam'] as const) {
    it(`at its first ${at} event: the folder is whole, and a resume finishes it with each evaluation counted once`, async () => {
      const out = join(dir, `abort-${at}`);
      const abort = new AbortController();
      const stop = (e: JournalEvent) => e.type === at && abort.abort(new Error(`stopped at ${at}`));
      await search({ ...base, budget: 2, out, signal: abort.signal, onEvent: stop }).catch((err: Error) => expect(err.message).toContain(`stopped at ${at}`));
      expect(abort.signal.aborted).toBe(true);
      const first = readJournal(join(out, 'journal.jsonl'));
      expect(first.tornLine).toBeUndefined();
      expect(first.events.some((e) => e.type === 'stopped' && e.kind === 'interrupted')).toBe(true);
      const resumed = await search({ out, resume: true });
      expect(resumed.steps).toBe(2);
      const counted = new Set<string>();
      for (const e of replay(readJournal(join(out, 'journal.jsonl')).events).evaluations) {
        const key = `${e.node}/${e.split}/${e.index}`;
        expect(counted.has(key), `${key} counted twice`).toBe(false);
        counted.add(key);
        expect(existsSync(join(out, e.evidence, 'summary.json')), `${e.evidence} has its summary`).toBe(true);
      }
    });
  }
});
