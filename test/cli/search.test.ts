// The search as a user runs it, including a real kill -9 in the middle and --resume.
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultLocomoDir } from '../../envs/locomo/environment.ts';
import { resolveProgram } from '../../memo-programs/registry.ts';
import { repoRoot } from '../../foundation/paths.ts';
import { automemo, automemoInProcess, bin, cliEnv as env, withoutProgress } from '../support/cli.ts';
import { readJournal } from '../../run-store/journal.ts';
import { replay } from '../../engine/search/replay.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** One LoCoMo conversation in a folder of its own: what is tested here does not need all three. */
function oneConversation(): string {
  const dir = mkdtempSync(join(tmpdir(), 'search-locomo-'));
  dirs.push(dir);
  cpSync(join(defaultLocomoDir(), '26.json'), join(dir, '26.json'));
  return dir;
}

describe('automemo search', () => {
  it('survives kill -9 mid-run: --resume loses no finished step and completes the budget', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'search-kill-')), 'run');
    dirs.push(join(out, '..'));
    const args = [
      'search',
      '--env',
      'locomo',
      '--data',
      oneConversation(),
      '--seeds',
      'bm25',
      '--budget',
      '4',
      '--eval-fraction',
      '0.3',
      '--min-eval-tasks',
      '0',
      '--no-test',
      '--seed',
      '5',
      '--out',
      out,
    ];
    const child = spawn(process.execPath, [bin, ...args], { cwd: repoRoot, env, stdio: 'ignore' });
    const journal = join(out, 'journal.jsonl');
    const doneSteps = () =>
      existsSync(journal) ? (readFileSync(journal, 'utf8').match(/"type":"step-done"/g) ?? []).length : 0;
    const deadline = Date.now() + 240_000;
    while (doneSteps() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // The user's kill -9 reaches the command they started (the launcher); the search inside must stop with it.
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    await new Promise((r) => setTimeout(r, 1000));
    const frozen = readFileSync(journal, 'utf8');
    await new Promise((r) => setTimeout(r, 1500));
    expect(readFileSync(journal, 'utf8')).toBe(frozen);
    const before = readJournal(journal);
    const finished = replay(before.events);
    expect(finished.completedSteps).toBeGreaterThanOrEqual(1);
    const keptNodes = [...finished.tree.nodes.values()].map((n) => [n.id, n.scores]);

    const resumed = automemo('search', '--resume', '--out', out);
    expect(withoutProgress(resumed.err)).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.out).toContain('(resumed)');
    expect(resumed.out).toMatch(/^steps\s+4$/m);
    const after = replay(readJournal(journal).events);
    // Every node and score finished before the kill is still there, unchanged.
    for (const [id, scores] of keptNodes)
      expect(after.tree.get(id as string).scores.slice(0, (scores as number[]).length)).toEqual(scores);
    expect(after.completedSteps).toBe(4);
    expect(after.actions.filter((a) => a.step >= 1 && a.step <= 4).map((a) => a.step)).toEqual([1, 2, 3, 4]);
    // Its own deadline for the first steps is 240 s: a loaded machine must not fail it at vitest's default minute.
  }, 360_000);

  it('refuses to overwrite a run, and names bad options; a seed given as a path with ../ runs under a safe id and writes nothing outside', async () => {
    const out = mkdtempSync(join(tmpdir(), 'search-args-'));
    dirs.push(out);
    // A seed folder named by a path that climbs out with "..": resolved from the working folder it is the seed,
    // while the old id (seed-<the path>) put the seed's files and evidence outside the run folder, into the seed's own.
    const seedDir = join(mkdtempSync(join(tmpdir(), 'search-seed-')), 'prog', 'seeddir');
    dirs.push(join(seedDir, '..', '..'));
    mkdirSync(seedDir, { recursive: true });
    writeFileSync(join(seedDir, 'index.ts'), readFileSync(resolveProgram('bm25').path));
    const seedFile = statSync(join(seedDir, 'index.ts'));
    const seed = `${'../'.repeat(8)}${relative('/', seedDir)}`;
    expect(relative(out, join(out, 'programs', `seed-${seed}`)).startsWith('..')).toBe(true);
    // Through the dispatcher in this process (the real binary runs the kill -9 test above): a process start is
    // seconds on a loaded machine.
    const first = await automemoInProcess(
      'search',
      '--env',
      'locomo',
      '--data',
      oneConversation(),
      '--budget',
      '0',
      '--no-test',
      '--eval-fraction',
      '0.2',
      '--min-eval-tasks',
      '0',
      '--seeds',
      seed,
      '--out',
      out,
    );
    expect(first.code, first.err).toBe(0);
    expect(first.out).toMatch(/selected \(lcb\)\s+(root|seed-seeddir)/);
    expect(first.out).toMatch(/^seed-seeddir\s+validation \d/m);
    const seedNode = readJournal(join(out, 'journal.jsonl')).events.find(
      (e) => e.type === 'node' && e.id === 'seed-seeddir',
    );
    expect(seedNode).toMatchObject({ kind: 'seed', dir: 'programs/seed-seeddir' });
    expect(readdirSync(join(out, 'evidence')).sort()).toEqual(['root', 'seed-seeddir']);
    expect(readdirSync(seedDir)).toEqual(['index.ts']);
    expect(statSync(join(seedDir, 'index.ts')).mtimeMs).toBe(seedFile.mtimeMs);
    expect((await automemoInProcess('search', '--env', 'locomo', '--seeds', 'bm25,,dense')).err).toContain(
      '--seeds has an empty name',
    );
    const again = await automemoInProcess('search', '--env', 'locomo', '--budget', '0', '--out', out);
    expect(again.code).toBe(2);
    expect(again.err).toContain('already holds a run; use --resume');
    expect((await automemoInProcess('search', '--env', 'locomo', '--policy', 'magic')).err).toContain(
      '--policy: unknown policy "magic"; known: ucb, ucb-paper, greedy, random, alma-softmax',
    );
    expect((await automemoInProcess('search', '--env', 'locomo', '--policy', 'ucbb')).err).toContain(
      'unknown policy "ucbb" (did you mean "ucb"?)',
    );
    expect((await automemoInProcess('search', '--env', 'locomo', '--seeds', 'nope')).err).toContain(
      'no memo program "nope"',
    );
    expect((await automemoInProcess('search', '--resume', '--out', join(out, 'missing'))).err).toContain(
      'has no run.json',
    );
    expect((await automemoInProcess('search', '--env', 'locomo', '--meta', 'model')).err).toContain(
      '--meta model needs a model',
    );
    // A run in use by a live process is refused.
    // (The dispatcher runs in this process here, so the holder is another live one: vitest's own.)
    writeFileSync(join(out, 'lock'), String(process.ppid));
    expect((await automemoInProcess('search', '--resume', '--out', out)).err).toContain(
      `is in use by process ${process.ppid}`,
    );
    rmSync(join(out, 'lock'));
  }, 240_000);
});
