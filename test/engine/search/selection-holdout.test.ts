// An honest pick: part of the validation is held out for selection only — never evaluated during the search (so the
// meta agent never reads it), stated in the validation plan — and no leading candidate beats the pick there by more than
// a standard error, task by task (the held-out tasks are few: a smaller edge does not overturn the validation's choice).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { search } from '../../../api/index.ts';
import { writeChoices } from '../../../bench/benchmarks/choices.ts';
import { holdOut, selectionSize } from '../../../engine/search/selection-holdout.ts';
import { pairedDifference } from '../../../engine/search/ties.ts';
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

  it('is never evaluated during the search, and no candidate beats the pick on it by more than a standard error', async () => {
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
    // The pick was scored there, and no candidate is resolvably better there (mean edge above one standard error).
    const rewards = new Map(
      held.map((e) => {
        const evidence = e.type === 'selection' ? e.evidence : '';
        const lines = readFileSync(join(out, evidence, 'tasks.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { taskId: string; reward: number });
        return [e.type === 'selection' ? e.node : '', new Map(lines.map((l) => [l.taskId, l.reward]))];
      }),
    );
    const mine = rewards.get(r.winner.id);
    expect(mine, 'the pick was scored on the held-out tasks').toBeDefined();
    expect(r.winner.selection).toBe(held.find((e) => e.type === 'selection' && e.node === r.winner.id)?.score);
    for (const [node, theirs] of rewards) {
      const d = pairedDifference(theirs, mine as Map<string, number>);
      expect(d.mean > d.halfWidth / 1.96 + 1e-9, `${node} beats the pick on the held-out tasks`).toBe(false);
    }
    const final = events.find((e) => e.type === 'final');
    expect(final?.type === 'final' && final.winner).toBe(r.winner.id);
  });
});
