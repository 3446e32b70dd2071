// What an environment's explain() returns is typed and checked where it enters: a module's explanation of the wrong
// shape (or one too big to read item by item) is refused with a message naming the module and the task, whether the
// module gives tasks (refused when it opens) or a full Environment (refused when explain is called); a good one gets
// the task's question and scenario where it gives none, and renders to prose only through renderExplanation.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openNamed } from '../../../api/environments.ts';
import { ExplanationError, renderExplanation } from '../../../engine/environment/explanation.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { ImageStore } from '../../../sandbox/primitives/images.ts';

const dir = mkdtempSync(join(tmpdir(), 'explanation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const open = (path: string) =>
  openNamed(path, { models: resolveModels({}, {}), images: new ImageStore(), seed: 0, onNote: () => undefined });

/** A module of twelve word tasks whose explain() body is `explain` (source text). */
function taskModule(name: string, explain: string): string {
  const path = join(dir, `${name}.ts`);
  writeFileSync(
    path,
    `import { defineEnvironment } from 'automemo';
const tasks = Array.from({ length: 12 }, (_, i) => ({ id: 't' + i, scenario: 'words', instruction: 'Say word ' + i + '.', truth: 'word-' + i }));
export default defineEnvironment({
  name: '${name}',
  summary: 'say the word',
  load: () => ({
    tasks,
    description: 'say the word',
    reward: 'the word said',
    agent: { id: 'parrot/1', run: async (task) => ({ answer: task.truth, steps: [] }) },
    check: (task, run) => run.answer === task.truth,
    explain: (task) => ${explain},
  }),
});
`,
  );
  return path;
}

describe("an environment's explanation", () => {
  it('a module whose explain() returns prose is refused when it opens, naming the module, the task and the field', async () => {
    const path = taskModule('prose-words', '`the answer is ${task.truth}`');
    const err = await open(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain(
      `environment "prose-words" (module ${path}): explain("t0") returned a malformed explanation: expected an object { question?, scenario?, gold: string[]`,
    );
  });

  it('names the wrong field of an object, and refuses one too big before reading its items', async () => {
    const wrong = await open(taskModule('wrong-words', "({ gold: task.truth, evidence: [{ text: 'x' }] })")).catch(
      (e: unknown) => e,
    );
    expect((wrong as Error).message).toMatch(
      /explain\("t0"\) returned a malformed explanation: gold: .*expected array.*evidence\.0\.id/s,
    );
    const started = Date.now();
    const big = await open(taskModule('big-words', "({ gold: new Array(5_000_000).fill('x') })")).catch(
      (e: unknown) => e,
    );
    expect((big as Error).message).toContain('gold holds 5000000 items, more than 100');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("fills a good one's question and scenario from the task", async () => {
    const { env } = await open(
      taskModule('good-words', "({ gold: [task.truth], notes: ['the agent repeats what it is told'] })"),
    );
    const e = env.explain?.('t3');
    expect(e).toEqual({
      question: 'Say word 3.',
      scenario: 'words',
      gold: ['word-3'],
      notes: ['the agent repeats what it is told'],
    });
    expect(renderExplanation(e as NonNullable<typeof e>)).toBe(
      'question (words): Say word 3.\ngold answer: "word-3"\nthe agent repeats what it is told',
    );
  });

  it("a full Environment's explain() is checked when it is called, naming the module", async () => {
    const path = join(dir, 'full.ts');
    writeFileSync(
      path,
      `import { defineEnvironment } from 'automemo';
import { ToyEnvironment } from ${JSON.stringify(join(import.meta.dirname, '..', '..', 'support', 'toy-env.ts'))};
class Explained extends ToyEnvironment {
  explain(taskId) { return taskId.endsWith('door-0') ? { gold: ['amber'], choices: [{ letter: 'a', text: 'amber', gold: true }] } : { gold: ['cedar'] }; }
}
export default defineEnvironment({ name: 'full-doors', summary: 'doors', load: () => new Explained() });
`,
    );
    const { env } = await open(path);
    expect(env.explain?.('w1/door-5')).toEqual({ gold: ['cedar'] });
    expect(() => env.explain?.('w1/door-0')).toThrow(ExplanationError);
    expect(() => env.explain?.('w1/door-0')).toThrow(
      `environment "full-doors" (module ${path}): explain("w1/door-0") returned a malformed explanation: choices.0.letter: must be one capital letter`,
    );
  });
});
