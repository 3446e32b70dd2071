// A journal anyone could have edited: node ids and paths that would lead out of the run folder are refused with
// the line named, a giant line is measured rather than read, and a journal that is not a file is named as such.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal, readJournal } from '../../run-store/journal.ts';
import { replay } from '../../engine/search/replay.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'journal-hostile-'));
  dirs.push(d);
  return join(d, 'journal.jsonl');
};

let t = 1;
const line = (e: Record<string, unknown>) => `${JSON.stringify({ ...e, t: t++ })}\n`;
const node = (id: string, dir = `programs/${id}`) => line({ type: 'node', step: 0, id, parent: null, kind: 'root', dir, hash: 'h', parentSnapshot: null });

describe('a tampered journal', () => {
  it('refuses node ids and folders that are not safe names, naming the line and the field', () => {
    const path = tmp();
    for (const [bad, field] of [
      [node('../../x'), 'id'],
      [node('root', '../../x'), 'dir'],
      [node('root', '/etc'), 'dir'],
      [node('<script>alert(1)</script>'), 'id'],
      [line({ type: 'evaluation', step: 0, node: 'root', split: 'train', index: 0, score: 1, tasks: 1, evidence: 'evidence/../../../x', stats: {}, ms: 1 }), 'evidence'],
      [line({ type: 'generation-failed', step: 1, parent: 'root', failure: { check: 'meta-agent', detail: 'r' }, attempts: 1, dir: 'programs/../../x' }), 'dir'],
      [line({ type: 'final', selection: 'lcb', winner: '../x', lcb: 0, validation: 0 }), 'winner'],
    ] as const) {
      writeFileSync(path, `${node('root')}${bad}`);
      expect(() => readJournal(path)).toThrow(new RegExp(`line 2 is not a journal event: [\\s\\S]*not a safe (name|relative path)[\\s\\S]*at ${field}`));
    }
  });

  it('measures a giant line instead of reading it: damage in the middle, a torn write at the end', () => {
    const path = tmp();
    const giant = `{"type":"node","description":"${'x'.repeat(9 * 2 ** 20)}"}`;
    writeFileSync(path, `${node('root')}${giant}\n${line({ type: 'step-done', step: 0 })}`);
    expect(() => readJournal(path)).toThrow(/line 2 is 9\.\d MB, over the 8\.4 MB a journal line may hold; the journal is damaged/);
    writeFileSync(path, `${node('root')}${giant}`);
    const r = readJournal(path);
    expect(r.events).toHaveLength(1);
    expect(r.tornLine).toEqual({ line: 2, text: '(9.4 MB cut off)' });
    // Appending again first cuts the torn line off, reading only the file's tail.
    const j = new Journal(path);
    j.append({ type: 'step-done', step: 0 });
    j.close();
    expect(readJournal(path).events.map((e) => e.type)).toEqual(['node', 'step-done']);
  });

  it('names a journal that refers to nodes it never added', () => {
    const path = tmp();
    const evaluation = line({ type: 'evaluation', step: 0, node: 'ghost', split: 'train', index: 0, score: 1, tasks: 1, evidence: 'evidence/ghost/train-0', stats: {}, ms: 1 });
    writeFileSync(path, `${line({ type: 'start', resumed: false, pid: 1 })}${node('root')}${evaluation}${line({ type: 'step-done', step: 0 })}`);
    expect(() => replay(readJournal(path).events)).toThrow('the journal does not hold together at its evaluation event of step 0: no node ghost');
    const orphan = line({ type: 'node', step: 0, id: 'n1', parent: 'nobody', kind: 'child', dir: 'programs/n1', hash: 'h', parentSnapshot: 0 });
    writeFileSync(path, `${line({ type: 'start', resumed: false, pid: 1 })}${node('root')}${orphan}${line({ type: 'step-done', step: 0 })}`);
    expect(() => replay(readJournal(path).events)).toThrow('at its node event of step 0: node n1: unknown parent nobody');
  });

  it('names a journal that is a folder', () => {
    const path = tmp();
    mkdirSync(path);
    expect(() => readJournal(path)).toThrow(/journal.jsonl is not a file/);
    expect(() => new Journal(path)).toThrow(/journal.jsonl is not a file/);
  });
});
