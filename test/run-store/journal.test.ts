import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, readJournal } from '../../run-store/journal.ts';
import { replay } from '../../engine/search/replay.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'journal-'));
  dirs.push(d);
  return join(d, 'journal.jsonl');
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const node = (id: string, parent: string | null, step: number) =>
  ({ type: 'node', step, id, parent, kind: parent ? 'child' : 'root', dir: `programs/${id}`, hash: 'h', parentSnapshot: parent ? 0 : null }) as const;
const evaluation = (n: string, step: number, score: number) =>
  ({ type: 'evaluation', step, node: n, split: 'train', index: 0, score, tasks: 3, evidence: 'e', stats: {}, ms: 1 }) as const;

describe('journal', () => {
  it('appends events with times and reads them back', () => {
    const path = tmp();
    const j = new Journal(path);
    j.append(node('root', null, 0));
    j.append({ type: 'step-done', step: 0 });
    j.close();
    const r = readJournal(path);
    expect(r.events.map((e) => e.type)).toEqual(['node', 'step-done']);
    expect(r.events[0]?.t).toBeGreaterThan(0);
    expect(r.tornLine).toBeUndefined();
  });

  it('detects and drops a torn last line, and cuts it before appending again', () => {
    const path = tmp();
    const j = new Journal(path);
    j.append(node('root', null, 0));
    j.close();
    appendFileSync(path, '{"type":"evaluation","step":0,"no');
    const r = readJournal(path);
    expect(r.events).toHaveLength(1);
    expect(r.tornLine).toEqual({ line: 2, text: '{"type":"evaluation","step":0,"no' });
    const again = new Journal(path);
    again.append({ type: 'step-done', step: 0 });
    again.close();
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    expect(readJournal(path).tornLine).toBeUndefined();
  });

  it('refuses a damaged line in the middle, naming it', () => {
    const path = tmp();
    writeFileSync(path, `${JSON.stringify({ ...node('root', null, 0), t: 1 })}\nGARBAGE\n${JSON.stringify({ type: 'step-done', step: 0, t: 2 })}\n`);
    expect(() => readJournal(path)).toThrow(/line 2 is not JSON; the journal is damaged/);
    writeFileSync(path, `${JSON.stringify({ type: 'mystery', t: 1 })}\n`);
    expect(() => readJournal(path)).toThrow(/line 1 is not a journal event/);
  });
});

describe('replay', () => {
  it('keeps completed steps, drops the step in flight, keeps every model call', () => {
    const t = 1;
    const events = [
      { ...node('root', null, 0), t },
      { ...evaluation('root', 0, 0.1), t },
      { type: 'step-done' as const, step: 0, t },
      { type: 'action' as const, step: 1, kind: 'generate' as const, node: 'root', score: 1, candidates: [], t },
      { ...node('n1', 'root', 1), t },
      { ...evaluation('n1', 1, 0.5), t },
      { type: 'step-done' as const, step: 1, t },
      { type: 'action' as const, step: 2, kind: 'generate' as const, node: 'n1', score: 1, candidates: [], t },
      { type: 'meta-call' as const, step: 2, node: 'n1', role: 'meta', purpose: 'analysis', model: 'm', promptTokens: 10, completionTokens: 5, usd: 0.01, ms: 3, ok: true, t },
      { ...node('n2', 'n1', 2), t },
    ];
    const r = replay(events);
    expect([...r.tree.nodes.keys()]).toEqual(['root', 'n1']);
    expect(r.tree.get('n1').scores).toEqual([0.5]);
    expect(r.completedSteps).toBe(1);
    expect(r.dropped).toBe(2);
    expect(r.metaCalls).toHaveLength(1);
  });
});

describe('replay after a resumed run', () => {
  it('drops the lines of a step killed half-way once a later session redoes it', () => {
    const t = 1;
    const events = [
      { type: 'start' as const, resumed: false, pid: 1, t },
      { ...node('root', null, 0), t },
      { ...evaluation('root', 0, 0.1), t },
      { type: 'step-done' as const, step: 0, t },
      { type: 'action' as const, step: 1, kind: 'generate' as const, node: 'root', score: 1, candidates: [], t },
      { ...node('n1', 'root', 1), t }, // killed before its evaluation
      { type: 'start' as const, resumed: true, pid: 2, t },
      { type: 'action' as const, step: 1, kind: 'generate' as const, node: 'root', score: 1, candidates: [], t },
      { ...node('n1', 'root', 1), t },
      { ...evaluation('n1', 1, 0.4), t },
      { type: 'step-done' as const, step: 1, t },
    ];
    const r = replay(events);
    expect([...r.tree.nodes.keys()]).toEqual(['root', 'n1']);
    expect(r.tree.get('n1').scores).toEqual([0.4]);
    expect(r.actions).toHaveLength(1);
    expect(r.dropped).toBe(2);
  });
});
