// An honest pick: part of the validation is held out for selection only — never evaluated during the search (so the
// meta agent never reads it), stated in the validation plan — and the pick is the best of the leading candidates there.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { search } from '../../../api/index.ts';
import { writeChoices } from '../../../bench/benchmarks/choices.ts';
import { holdOut, selectionSize } from '../../../engine/search/selection-holdout.ts';
import { readJournal } from '../../../run-store/journal.ts';

const dir = mkdtempSync(join(tmpdir(), 'selection-holdout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the validation held out for selection', () => {
  it('is sized so its interval resolves, and only where validation is large enough', () => {
    expect(selectionSize(30, 0.3)).toBe(0);
    // The search keeps 30 at least: 40 tasks hold nothing out, 50 hold out 20.
    expect(selectionSize(40, 0.3)).toBe(0);
    expect(selectionSize(50, 0.3)).toBe(20);
    expect(selectionSize(100, 0.3)).toBe(30);
    expect(selectionSize(100, 0)).toBe(0);
    const ids = Array.from({ length: 100 }, (_, i) => `q${i}`);
    const a = holdOut(ids, 3, 0.3);
    expect(a.selection).toHaveLength(30);
    expect(a.search).toHaveLength(70);
    expect(new Set([...a.search, ...a.selection]).size).toBe(100);
    expect(holdOut(ids, 3, 0.3)).toEqual(a);
  });

  it('is never evaluated during the search, and the pick is the best candidate on it', async () => {
    const data = join(dir, 'choices.jsonl');
    writeChoices(data, 2);
    // Half the questions validate, so validation is large enough to hold some out.
    const [header, ...worlds] = readFileSync(data, 'utf8').trim().split('\n');
    writeFileSync(data, `${[JSON.stringify({ ...JSON.parse(header as string), trainShare: 0.5 }), ...worlds].join('\n')}\n`);
    const out = join(dir, 'run');
    const r = await search({ env: `data:${data}`, out, budget: 1, seeds: ['bm25', 'no-memory'], meta: 'offline', workers: 0, minEvalTasks: 0, evalFraction: 0.5, test: false });
    expect(r.validation.selection?.tasks).toBeGreaterThanOrEqual(20);
    const events = readJournal(join(out, 'journal.jsonl')).events;
    const held = events.filter((e) => e.type === 'selection');
    expect(held.length).toBeGreaterThanOrEqual(2);
    const heldIds = new Set(readFileSync(join(out, held[0]?.type === 'selection' ? held[0].evidence : '', 'tasks.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).taskId as string));
    expect(heldIds.size).toBe(r.validation.selection?.tasks);
    // No validation evaluation of the search (what the meta agent reads) scored a held-out task.
    for (const e of events) {
      if (e.type !== 'evaluation' || e.split !== 'train') continue;
      const ids = readFileSync(join(out, e.evidence, 'tasks.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).taskId as string);
      expect(ids.filter((id) => heldIds.has(id))).toEqual([]);
    }
    const best = Math.max(...held.map((e) => (e.type === 'selection' ? (e.score ?? -1) : -1)));
    expect(r.winner.selection).toBe(best);
    const final = events.find((e) => e.type === 'final');
    expect(final?.type === 'final' && final.winner).toBe(r.winner.id);
  });
});
