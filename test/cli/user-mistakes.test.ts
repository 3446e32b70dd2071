// A user's mistakes get a message they can act on, and nothing they gave is silently dropped (issue 37, item 8):
// --strict and a line that is not JSON; an exception in the benchmark's own agent (the benchmark's failure, never the
// program's); an exception in load() (the module, the part, where); Ctrl-C (the resume command with the real run
// folder); a bad flag value (one line and a pointer to --help, not the whole usage); a mistyped program path (did
// you mean); --split validation (the name the roles and the README use; train still works).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../foundation/paths.ts';
import { automemoInProcess as automemo, bin, cliEnv } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'user-mistakes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const [header, ...worlds] = readFileSync(join(repoRoot, 'examples', 'qa-data', 'team-notes.jsonl'), 'utf8')
  .trim()
  .split('\n');
const dataFile = join(dir, 'notes.jsonl');
// Line 3 is not JSON (a world cut in half): without --strict it is named and left out; with it, refused.
writeFileSync(dataFile, [header, worlds[0], '{"type": "world", "id": "half', worlds[1]].join('\n'));

/** A module whose agent throws when THROW says so, and whose load() throws when LOAD_THROWS does. */
const module = join(dir, 'crm-env.ts');
writeFileSync(
  module,
  `import { defineEnvironment } from 'automemo';
export default defineEnvironment({
  name: 'crm',
  summary: 'a CRM the agent talks to',
  load() {
    if (process.env.LOAD_THROWS) JSON.parse('{"tasks": ');
    return {
      tasks: Array.from({ length: 12 }, (_, i) => ({ id: 't' + i, scenario: 's', instruction: 'say a', truth: 'a' })),
      agent: { id: 'crm-agent/1', async run() { if (process.env.THROW) throw new Error('CRM timeout'); return { answer: 'a', steps: [] }; } },
      check: (task: { truth?: string }, run: { answer?: string }) => run.answer === task.truth,
      description: 'say a',
      reward: 'the word said',
    };
  },
});
`,
);

/** `fn` with these environment variables set (the module reads them as it runs in this process). */
async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const k of Object.keys(vars)) delete process.env[k];
  }
}

describe('a user mistake gets a message to act on', () => {
  it('--strict refuses a data file with a line that is not JSON, naming the file and line; without it the line is named as left out', async () => {
    const strict = await automemo(
      'eval',
      '--env',
      `data:${dataFile}`,
      '--program',
      'bm25',
      '--strict',
      '--out',
      join(dir, 'strict'),
    );
    expect(strict.code).toBe(1);
    expect(strict.err).toMatch(
      /notes\.jsonl: left out: notes\.jsonl:3 \(unread: not JSON.*\) \(--strict\):\n {2}- notes\.jsonl:3: not JSON/,
    );
    const loose = await automemo('eval', '--env', `data:${dataFile}`, '--program', 'bm25', '--out', join(dir, 'loose'));
    expect(loose.code, loose.err).toBe(0);
    expect(loose.err).toMatch(
      /data: team-notes: 2 worlds, .*; left out: notes\.jsonl:3 \(unread: not JSON.*\) \(--strict refuses this\)/,
    );
  });

  it("an exception in the benchmark's own agent is the benchmark's failure, never the program's", async () => {
    const r = await withEnv({ THROW: '1' }, () =>
      automemo(
        'baselines',
        '--env',
        module,
        '--programs',
        'no-memory,bm25',
        '--workers',
        '0',
        '--out',
        join(dir, 'agent-throws'),
      ),
    );
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      `no-memory was not evaluated: the benchmark failed, not the program: collecting the update episode of task "t`,
    );
    expect(r.out).toContain(`environment "crm" (module ${module}): its agent crm-agent/1 threw on task "t`);
    expect(r.out).toContain('CRM timeout');
    // Not run into the same failure again, and never charged to a program.
    expect(r.out).toContain(
      'bm25 was not evaluated: the benchmark failed, not the program: not run, the benchmark failed on no-memory (above)',
    );
    expect(r.out).not.toMatch(/(no-memory|bm25) failed/);
    const results = JSON.parse(readFileSync(join(dir, 'agent-throws', 'results.json'), 'utf8')) as {
      environment?: boolean;
      infrastructure: boolean;
    }[];
    expect(results.every((e) => e.environment === true && e.infrastructure === true)).toBe(true);
  });

  it('an exception in load() names the module, load() and where it was thrown, besides its message', async () => {
    const r = await withEnv({ LOAD_THROWS: '1' }, () =>
      automemo('eval', '--env', module, '--program', 'bm25', '--out', join(dir, 'load-throws')),
    );
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      new RegExp(
        `^automemo eval: environment "crm" \\(module ${module.replaceAll('.', '\\.')}\\): load\\(\\) failed: .*JSON.* \\(at ${module.replaceAll('.', '\\.')}:\\d+:\\d+\\)\\n$`,
      ),
    );
  });

  it('a bad flag value is one line and a pointer to --help, not the whole usage', async () => {
    const r = await automemo('eval', '--env', 'locomo', '--program', 'bm25', '--tasks', 'many');
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'automemo eval: --tasks: expected a whole number from 1 to 1000000\n(automemo eval --help lists its options)\n',
    );
  });

  it('a mistyped program path is answered with the file meant, in eval and check', async () => {
    mkdirSync(join(dir, 'progs'));
    writeFileSync(join(dir, 'progs', 'recency.ts'), 'export default {};\n');
    const typo = join(dir, 'progs', 'recnecy.ts');
    const evaluated = await automemo('eval', '--env', 'locomo', '--program', typo);
    expect(evaluated.code).toBe(2);
    expect(evaluated.err).toContain(`no memo program "${typo}" (did you mean "${join(dir, 'progs', 'recency.ts')}"?)`);
    const checked = await automemo('check', join(dir, 'prgos', 'recency.ts'));
    expect(checked.code).toBe(2);
    expect(checked.err).toContain(`(did you mean "${join(dir, 'progs', 'recency.ts')}"?)`);
    // Written relative to the working folder, it is answered so.
    const relativeTypo = relative(process.cwd(), typo);
    expect((await automemo('eval', '--env', 'locomo', '--program', relativeTypo)).err).toContain(
      `(did you mean "${relative(process.cwd(), join(dir, 'progs', 'recency.ts'))}"?)`,
    );
  });

  it('--split validation scores the validation tasks, says so, and train is the same split', async () => {
    const validation = await automemo(
      'eval',
      '--env',
      `data:${dataFile}`,
      '--program',
      'bm25',
      '--split',
      'validation',
      '--out',
      join(dir, 'validation'),
      '--json',
    );
    expect(validation.code, validation.err).toBe(0);
    const v = JSON.parse(validation.out) as { split: string; score: number; tasks: unknown };
    expect(v.split).toBe('validation');
    const train = await automemo(
      'eval',
      '--env',
      `data:${dataFile}`,
      '--program',
      'bm25',
      '--split',
      'train',
      '--out',
      join(dir, 'train'),
      '--json',
    );
    expect(JSON.parse(train.out)).toMatchObject({ split: 'validation', score: v.score });
    const text = await automemo(
      'eval',
      '--env',
      `data:${dataFile}`,
      '--program',
      'bm25',
      '--split',
      'validation',
      '--out',
      join(dir, 'validation-text'),
    );
    expect(text.out).toMatch(/; \d+ validation tasks in 2 worlds/);
    expect(JSON.parse(readFileSync(join(dir, 'validation-text', 'results.json'), 'utf8'))[0].split).toBe('validation');
    expect((await automemo('eval', '--help')).out).toMatch(
      /--split S +validation \(the tasks a search validates on; train is/,
    );
    expect((await automemo('eval', '--env', 'locomo', '--program', 'bm25', '--split', 'dev')).err).toContain(
      '--split: validation (the tasks a search validates on) or test (held out); got "dev"',
    );
  });

  it('Ctrl-C names the run folder in the command that resumes it', async () => {
    const out = join(dir, 'a run folder');
    const child = spawn(
      process.execPath,
      [bin, 'search', '--env', `data:${dataFile}`, '--budget', '50', '--workers', '0', '--out', out],
      { cwd: repoRoot, env: cliEnv, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (d) => {
        stdout += d;
        // The search has started (its run folder exists): its validation line is out.
        if (/^validation: /m.test(stdout)) resolve();
      }),
    );
    child.kill('SIGINT');
    // Stopped early (130), or before any program had a score (1): either way resumable from the folder it names.
    expect([1, 130]).toContain(await exited);
    expect(stderr).toContain(
      `automemo search: stopping (the step in flight is abandoned); continue with: automemo search --resume --out '${out}'`,
    );
    expect(existsSync(join(out, 'run.json'))).toBe(true);
  }, 120_000);
});
