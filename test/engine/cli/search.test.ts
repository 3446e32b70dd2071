// The search as a user runs it, including a real kill -9 in the middle and --resume.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../sandbox/paths.ts';
import { automemo, bin, cliEnv as env } from '../../support/cli.ts';
import { readJournal } from '../../../search-trees/journal.ts';
import { replay } from '../../../search-trees/replay.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('automemo search', () => {
  it('survives kill -9 mid-run: --resume loses no finished step and completes the budget', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'search-kill-')), 'run');
    dirs.push(join(out, '..'));
    const args = ['search', '--env', 'locomo', '--budget', '6', '--eval-fraction', '0.3', '--no-test', '--seed', '5', '--out', out];
    const child = spawn(process.execPath, [bin, ...args], { cwd: repoRoot, env, stdio: 'ignore' });
    const journal = join(out, 'journal.jsonl');
    const doneSteps = () => (existsSync(journal) ? (readFileSync(journal, 'utf8').match(/"type":"step-done"/g) ?? []).length : 0);
    const deadline = Date.now() + 240_000;
    while (doneSteps() < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // The user's kill -9 reaches the command they started (the launcher); the search inside must stop with it.
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    await new Promise((r) => setTimeout(r, 1000));
    const frozen = readFileSync(journal, 'utf8');
    await new Promise((r) => setTimeout(r, 1500));
    expect(readFileSync(journal, 'utf8')).toBe(frozen);
    const before = readJournal(journal);
    const finished = replay(before.events);
    expect(finished.completedSteps).toBeGreaterThanOrEqual(2);
    const keptNodes = [...finished.tree.nodes.values()].map((n) => [n.id, n.scores]);

    const resumed = automemo('search', '--resume', '--out', out);
    expect(resumed.err).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.out).toContain('(resumed)');
    expect(resumed.out).toMatch(/^steps\s+6$/m);
    const after = replay(readJournal(journal).events);
    // Every node and score finished before the kill is still there, unchanged.
    for (const [id, scores] of keptNodes) expect(after.tree.get(id as string).scores.slice(0, (scores as number[]).length)).toEqual(scores);
    expect(after.completedSteps).toBe(6);
    expect(after.actions.filter((a) => a.step >= 1 && a.step <= 6).map((a) => a.step)).toEqual([1, 2, 3, 4, 5, 6]);
    // Its own deadline for the first steps is 240 s: a loaded machine must not fail it at vitest's default minute.
  }, 360_000);

  it('refuses to overwrite a run, and names bad options', () => {
    const out = mkdtempSync(join(tmpdir(), 'search-args-'));
    dirs.push(out);
    const first = automemo('search', '--env', 'locomo', '--budget', '0', '--no-test', '--eval-fraction', '0.2', '--out', out);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/selected \(lcb\)\s+seed-omni-simplemem/);
    const again = automemo('search', '--env', 'locomo', '--budget', '0', '--out', out);
    expect(again.code).toBe(2);
    expect(again.err).toContain('already holds a run; use --resume');
    expect(automemo('search', '--env', 'locomo', '--policy', 'magic').err).toContain('unknown --policy magic');
    expect(automemo('search', '--env', 'locomo', '--seeds', 'nope').err).toContain('no memo program "nope"');
    expect(automemo('search', '--resume', '--out', join(out, 'missing')).err).toContain('has no run.json');
    expect(automemo('search', '--env', 'locomo', '--meta', 'model').err).toContain('--meta model needs a model');
    // A run in use by a live process is refused.
    writeFileSync(join(out, 'lock'), String(process.pid));
    expect(automemo('search', '--resume', '--out', out).err).toContain(`is in use by process ${process.pid}`);
    rmSync(join(out, 'lock'));
  });
});
