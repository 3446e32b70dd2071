// automemo study's arguments, as a user mistypes them: refused before any work with a message naming the problem.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { automemoInProcess } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'cli-study-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('automemo study', () => {
  it('names what is missing or wrong, exit 2', async () => {
    const none = await automemoInProcess('study', '--out', join(dir, 'a'));
    expect([none.code, none.err]).toEqual([2, expect.stringContaining('give --env (once per environment), or --resume --out <study folder>')]);
    const protocol = await automemoInProcess('study', '--env', 'locomo', '--out', join(dir, 'b'), '--protocol', 'everything');
    expect([protocol.code, protocol.err]).toEqual([2, expect.stringContaining('--protocol: update (the update episodes only; the default) or update+validation; got "everything"')]);
    const repeat = await automemoInProcess('study', '--env', 'locomo', '--out', join(dir, 'c'), '--repeat', '0');
    expect([repeat.code, repeat.err]).toEqual([2, expect.stringContaining('--repeat: expected a whole number from 1 to 32')]);
  });

  it('refuses to resume a folder that is not a study, touching nothing', async () => {
    const mine = join(dir, 'mine');
    mkdirSync(mine);
    writeFileSync(join(mine, 'notes.txt'), 'keep');
    const r = await automemoInProcess('study', '--resume', '--out', mine);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/is not a study folder: it has no study\.json/);
  });
});
