// The library as a researcher calls it: search() with their environment as a definition object, progress as
// events, an AbortSignal that stops the run cleanly, and a resume that finishes it with every node kept.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineEnvironment, type JournalEvent, search, UsageError } from '../../api/index.ts';
import { readJournal } from '../../run-store/journal.ts';
import { ToyEnvironment } from '../support/toy-env.ts';

const dir = mkdtempSync(join(tmpdir(), 'api-search-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const toy = defineEnvironment({ name: 'toy-doors', summary: 'door codes', load: () => new ToyEnvironment() });

describe('search() as a library call', () => {
  it('stops cleanly on abort (journaled, no final phase) and a resume completes the budget with every node kept', async () => {
    const out = join(dir, 'run');
    const abort = new AbortController();
    const events: JournalEvent[] = [];
    const first = await search({
      env: toy,
      out,
      budget: 4,
      seeds: ['bm25'],
      meta: 'offline',
      signal: abort.signal,
      onEvent: (e) => {
        events.push(e);
        // Abort once step 1 has been chosen: the evaluation in flight is abandoned.
        if (e.type === 'action' && e.step === 1) abort.abort(new Error('enough for now'));
      },
    });
    expect(first.interrupted).toBe(true);
    expect(first.stopped).toMatch(/interrupted at step 1: enough for now/);
    expect(first.runFolder).toBe(out);
    expect(first.env).toMatchObject({ name: 'toy', source: { kind: 'builtin', name: 'toy-doors' } });
    const journal = readJournal(join(out, 'journal.jsonl')).events;
    expect(journal.some((e) => e.type === 'stopped' && e.kind === 'interrupted')).toBe(true);
    expect(journal.some((e) => e.type === 'final')).toBe(false);
    const nodesBefore = journal.filter((e) => e.type === 'node').map((e) => (e.type === 'node' ? e.id : ''));
    expect(nodesBefore).toEqual(['root', 'seed-bm25']);

    const second = await search({ out, resume: true });
    expect(second.interrupted).toBeUndefined();
    expect(second.stopped).toBeUndefined();
    expect(second.steps).toBe(4);
    const after = readJournal(join(out, 'journal.jsonl')).events;
    const nodesAfter = after.filter((e) => e.type === 'node').map((e) => (e.type === 'node' ? e.id : ''));
    expect(nodesAfter.slice(0, 2)).toEqual(nodesBefore);
    expect(after.some((e) => e.type === 'final')).toBe(true);
    expect(second.winner.test).toBeGreaterThan(0.5);
  });

  it('stops cleanly whatever the abort reason: an object without a prototype, a symbol, an error whose message cannot be read', async () => {
    const unreadable = new Error('x');
    Object.defineProperty(unreadable, 'message', {
      get() {
        throw new Error('gotcha');
      },
    });
    const reasons: [string, unknown, RegExp][] = [
      ['null prototype', Object.create(null), /interrupted at step 1: aborted \(with a reason that cannot be shown\)/],
      ['symbol', Symbol('stop'), /interrupted at step 1: Symbol\(stop\)/],
      ['unreadable message', unreadable, /interrupted at step 1: aborted \(with a reason that cannot be shown\)/],
    ];
    for (const [name, reason, stopped] of reasons) {
      const abort = new AbortController();
      const out = join(dir, `odd-${name.replace(/ /g, '-')}`);
      const r = await search({ env: toy, out, budget: 4, seeds: ['bm25'], meta: 'offline', signal: abort.signal, onEvent: (e) => e.type === 'action' && e.step === 1 && abort.abort(reason) });
      expect(r.interrupted, name).toBe(true);
      expect(r.stopped, name).toMatch(stopped);
      expect(readJournal(join(out, 'journal.jsonl')).events.some((e) => e.type === 'stopped' && e.kind === 'interrupted'), name).toBe(true);
    }
  });

  it('refuses bad options with a UsageError naming them', async () => {
    await expect(search({ env: toy, budget: -1 })).rejects.toThrow(UsageError);
    await expect(search({ env: toy, budget: -1 })).rejects.toThrow(/budget/);
    await expect(search({})).rejects.toThrow(/give env/);
    await expect(search({ env: 'no-such-env-here' })).rejects.toThrow(/no installed package/);
    await expect(search({ resume: true })).rejects.toThrow(/resume needs out/);
  });
});
