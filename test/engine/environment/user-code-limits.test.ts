// Calls into a researcher's environment code that never answer — load(), the agent, the checker — end at their time
// limit with a message naming the part and the task; a task whose agent or checker did not answer is unscored (the
// environment's failure, never the program's). A process with nothing else left to wait for says which call never
// settled, at once, instead of exiting 13 without a word.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../foundation/paths.ts';
import { evaluate } from '../../../api/evaluate.ts';
import { defineEnvironment, type EnvironmentDefinition } from '../../../engine/environment/define.ts';
import type { EnvTask } from '../../../engine/environment/task-spec.ts';
import { automemoAsync, cliEnv } from '../../support/cli.ts';
import { ToyEnvironment } from '../../support/toy-env.ts';

const work = mkdtempSync(join(tmpdir(), 'user-code-limits-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const never = () => new Promise<never>(() => undefined);

const run = (file: string, args: string[], env: NodeJS.ProcessEnv) =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    execFile(file, args, { env, timeout: 120_000 }, (error, out, err) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, out, err })),
  );

/** Twelve tasks (four update, four validation, four test); `part` never answers on the test tasks. */
function hanging(part: 'agent' | 'check', limits: EnvironmentDefinition['limits']): EnvironmentDefinition {
  const tasks: EnvTask<string>[] = Array.from({ length: 12 }, (_, i) => ({
    id: `t${i}`,
    scenario: 'words',
    instruction: `Say word ${i}.`,
    role: i < 4 ? 'update' : i < 8 ? 'validation' : 'test',
    meta: { hang: i >= 8 },
    truth: `word-${i}`,
  }));
  return defineEnvironment({
    name: `hanging-${part}`,
    summary: `its ${part} never answers on test tasks`,
    limits,
    load: () => ({
      tasks,
      description: 'say the word',
      reward: 'the word said',
      agent: { id: 'parrot/1', run: async (task: EnvTask<string>) => (part === 'agent' && task.meta?.hang ? never() : { answer: task.truth, steps: [] }) },
      check: (task: EnvTask<string>) => (part === 'check' && task.meta?.hang ? never() : 1),
    }),
  });
}

describe('a call into environment code that never answers', () => {
  for (const part of ['agent', 'check'] as const) {
    it(`${part}: the task ends at the limit, unscored, with a message naming the ${part} and the task`, async () => {
      const started = Date.now();
      const result = await evaluate({ env: hanging(part, { agentMs: 300, checkMs: 300 }), program: 'bm25', workers: 0, out: join(work, part) });
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(result.tasks.map((t) => t.taskId).sort()).toEqual(['t10', 't11', 't8', 't9']);
      for (const t of result.tasks) {
        expect(t.reward).toBeNull();
        expect(t.programError).toBeUndefined();
        const what = part === 'agent' ? `agent parrot/1 on task "${t.taskId}"` : `check of task "${t.taskId}"`;
        expect(t.infraError).toContain(`environment "hanging-${part}": ${what} did not finish within 0.3 s`);
      }
      expect(result.stats.infraFailed).toBe(4);
    });
  }

  it('a full Environment\'s run(): the task ends at the agent\'s limit, unscored, naming run() and the task', async () => {
    class Hanging extends ToyEnvironment {
      override run(): Promise<never> {
        return never();
      }
    }
    const definition = defineEnvironment({ name: 'hanging-run', summary: 'run never answers', limits: { agentMs: 300 }, load: () => new Hanging() });
    const result = await evaluate({ env: definition, program: 'bm25', workers: 0, out: join(work, 'run') });
    expect(result.tasks.length).toBeGreaterThan(0);
    for (const t of result.tasks) expect(t.infraError).toContain(`environment "hanging-run": run() of task "${t.taskId}" did not finish within 0.3 s`);
  });

  it('load(): the open fails at the limit, naming the environment and load()', async () => {
    const definition = defineEnvironment({ name: 'never-loads', summary: 'load never answers', limits: { loadMs: 300 }, load: never });
    await expect(evaluate({ env: definition, program: 'bm25', workers: 0, out: join(work, 'load') })).rejects.toThrow('environment "never-loads": load() did not finish within 0.3 s');
  });

  it('refuses limits that are not a time, naming them', async () => {
    const definition = defineEnvironment({ name: 'bad-limits', summary: 's', limits: { agentMs: -1 } as never, load: never });
    await expect(evaluate({ env: definition, program: 'bm25', workers: 0, out: join(work, 'bad') })).rejects.toThrow(/limits\.agentMs/);
  });
});

// A module whose part named by HANG waits on nothing at all (nothing else keeps the process alive): the run is ended
// at once, with a message naming the part, the module and its limit; never exit 13 without a word (the dead end was
// noticed in a beforeExit handler, the collector retried inside it, and Node left with `main` still awaited).
const hangingModule = join(work, 'hangs.ts');
writeFileSync(
  hangingModule,
  `import { defineEnvironment } from 'automemo';
const part = process.env.HANG;
const never = () => new Promise<never>(() => {});
export default defineEnvironment({
  name: 'hangs',
  summary: 'one part waits on nothing',
  limits: { loadMs: 400_000, agentMs: 500_000, checkMs: 600_000 },
  async load() {
    if (part === 'load') await never();
    return {
      tasks: Array.from({ length: 12 }, (_, i) => ({ id: 't' + i, scenario: 's', instruction: 'say a', truth: 'a' })),
      agent: { id: 'parrot/1', async run() { if (part === 'agent') await never(); return { answer: 'a', steps: [] }; } },
      check: async (task: { truth?: string }, run: { answer?: string }) => { if (part === 'check') await never(); return run.answer === task.truth; },
      description: 'say a',
      reward: 'the word said',
    };
  },
});
`,
);

// Concurrent: each case is a process of its own, waiting most of its time on the engine loading.
describe.concurrent('a module whose load(), agent or checker waits on nothing, in one process (--workers 0)', () => {
  const cases = [
    { part: 'load', what: 'load()', limit: 'its time limit (limits.loadMs) is 400 s' },
    { part: 'agent', what: 'agent parrot/1 on task "t', limit: 'its time limit (limits.agentMs) is 500 s' },
    { part: 'check', what: 'check of task "t', limit: 'its time limit (limits.checkMs) is 600 s' },
  ];
  for (const c of cases) {
    it(`${c.part}: the CLI ends with a message naming the ${c.part}, the module and the limit (exit 1, never 13)`, async () => {
      const r = await automemoAsync(['eval', '--env', hangingModule, '--program', 'bm25', '--workers', '0', '--out', join(work, `cli-${c.part}`)], { ...cliEnv, HANG: c.part });
      expect(r.code, r.err).toBe(1);
      const last = r.err.trim().split('\n').at(-1) ?? '';
      expect(last).toContain(`environment "hangs" (module ${hangingModule}): ${c.what}`);
      expect(last).toContain('never finished: it waits on something that can no longer happen');
      expect(last).toContain(c.limit);
      // The benchmark's failure, never the program's.
      if (c.part !== 'load') expect(last).toContain('bm25 was not evaluated: the benchmark failed, not the program');
    }, 120_000);
  }

  it("agent: a library caller's evaluate() rejects naming it, instead of the process exiting 13", async () => {
    const script = join(work, 'library.mjs');
    writeFileSync(
      script,
      `import { evaluate } from ${JSON.stringify(join(repoRoot, 'index.js'))};
try {
  await evaluate({ env: ${JSON.stringify(hangingModule)}, program: 'bm25', workers: 0, out: ${JSON.stringify(join(work, 'library'))} });
  console.log('resolved');
} catch (err) {
  console.log('rejected: ' + err.message);
}
`,
    );
    const r = await run(process.execPath, ['--no-node-snapshot', script], { ...cliEnv, HANG: 'agent' });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`rejected: bm25 was not evaluated: the benchmark failed, not the program: collecting the update episode of task "t`);
    expect(r.out).toContain(`environment "hangs" (module ${hangingModule}): agent parrot/1 on task "t`);
  }, 120_000);
});
