// Calls into a researcher's environment code that never answer — load(), the agent, the checker — end at their time
// limit with a message naming the part and the task; a task whose agent or checker did not answer is unscored (the
// environment's failure, never the program's). A process with nothing else left to wait for says which call never
// settled, at once, instead of exiting 13 without a word.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../../api/evaluate.ts';
import { defineEnvironment, type EnvironmentDefinition } from '../../../engine/environment/define.ts';
import type { EnvTask } from '../../../engine/environment/task-spec.ts';
import { automemoAsync } from '../../support/cli.ts';
import { ToyEnvironment } from '../../support/toy-env.ts';

const work = mkdtempSync(join(tmpdir(), 'user-code-limits-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const never = () => new Promise<never>(() => undefined);

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

it('a module whose load() waits on nothing at all: the CLI names it at once instead of exiting 13 silently', async () => {
  const module = join(work, 'never-loads.mjs');
  writeFileSync(module, "export default { name: 'never-loads', summary: 'load waits on nothing', load: () => new Promise(() => {}) };\n");
  const r = await automemoAsync(['eval', '--env', module, '--program', 'bm25', '--workers', '0', '--out', join(work, 'cli')]);
  expect(r.code).not.toBe(13);
  expect(r.code).not.toBe(0);
  expect(r.err).toContain('environment "never-loads": load() never finished: it waits on something that can no longer happen');
});
