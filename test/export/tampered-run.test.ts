// A run folder whose journal was edited to point outside it: `automemo export`, `report` and `view` refuse it with a
// message naming the problem (exit 1), write nothing, and leave the files outside untouched.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveProgram } from '../../memo-programs/registry.ts';
import { exportRun as exportProgram } from '../../api/export.ts';
import { renderReport } from '../../viewer/report.ts';
import { readRun } from '../../viewer/run-model.ts';
import { ViewServer } from '../../viewer/server.ts';
import { automemo } from '../support/cli.ts';
import { createToyRun } from '../support/toy-run.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Scratch folder T: T/run is a run of one node `root`; T/x holds a program and a file nobody may touch. */
function makeRun(node: { id?: string; dir?: string } = {}): { base: string; run: string; out: string } {
  const base = mkdtempSync(join(tmpdir(), 'tampered-run-'));
  dirs.push(base);
  const run = join(base, 'run');
  const { folder: folder } = createToyRun(run, { env: 'locomo', budget: 0, seeds: [], seed: 0 });
  folder.writeProgram('root', { 'index.ts': readFileSync(resolveProgram('no-memory').path, 'utf8') });
  mkdirSync(join(base, 'x'));
  copyFileSync(resolveProgram('no-memory').path, join(base, 'x', 'index.ts'));
  writeFileSync(join(base, 'x', 'precious.txt'), 'keep me');
  const id = node.id ?? 'root';
  let t = 1;
  const line = (e: Record<string, unknown>) => `${JSON.stringify({ ...e, t: t++ })}\n`;
  writeFileSync(
    folder.journalPath,
    [
      line({ type: 'start', resumed: false, pid: 1 }),
      line({ type: 'node', step: 0, id, parent: null, kind: 'root', dir: node.dir ?? 'programs/root', hash: 'h', parentSnapshot: null }),
      line({ type: 'evaluation', step: 0, node: id, split: 'train', index: 0, score: 0.5, tasks: 1, evidence: 'evidence/root/train-0', stats: {}, ms: 1 }),
      line({ type: 'step-done', step: 0 }),
      line({ type: 'final', selection: 'lcb', winner: id, lcb: 0, validation: 0.5 }),
    ].join(''),
  );
  return { base, run, out: join(base, 'pkg') };
}

describe('a run whose journal points outside it', () => {
  it('is refused by export, report and view alike, naming the line and the field', async () => {
    for (const [node, field] of [
      [{ dir: '../x' }, 'dir'],
      [{ dir: join(tmpdir(), 'x') }, 'dir'],
      [{ id: '../../x' }, 'id'],
    ] as const) {
      const { base, run, out } = makeRun(node);
      const problem = new RegExp(`line 2 is not a journal event: [\\s\\S]*not a safe (relative path|name)[\\s\\S]*at ${field}`);
      await expect(exportProgram({ run, out, format: 'npm' })).rejects.toThrow(problem);
      expect(() => readRun(run)).toThrow(problem);
      expect(() => renderReport(run)).toThrow(problem);
      await expect(new ViewServer(run).listen(0)).rejects.toThrow(problem);
      expect(existsSync(out)).toBe(false);
      expect(readFileSync(join(base, 'x', 'precious.txt'), 'utf8')).toBe('keep me');
    }
  });

  it('refuses a program folder that is a link out of the run, before compiling or writing anything', async () => {
    const { base, run, out } = makeRun();
    rmSync(join(run, 'programs', 'root'), { recursive: true });
    symlinkSync(join(base, 'x'), join(run, 'programs', 'root'));
    await expect(exportProgram({ run, out, format: 'npm' })).rejects.toThrow(/node root: its program folder is not inside the run folder \(.*symbolic link that leads outside/);
    expect(existsSync(out)).toBe(false);
    // The viewer shows no files of it either.
    const { readNodeDetail } = await import('../../viewer/node-detail.ts');
    expect(readNodeDetail(readRun(run), 'root')?.files).toEqual({});
  });

  it('makes automemo export exit 1 with the reason', () => {
    const { run, out } = makeRun({ dir: '../x' });
    const exported = automemo('export', run, '--out', out);
    expect(exported.code).toBe(1);
    expect(exported.err).toMatch(/automemo export: .*journal\.jsonl: line 2 is not a journal event: [\s\S]*not a safe relative path[\s\S]*at dir/);
    expect(existsSync(out)).toBe(false);
  });
});
