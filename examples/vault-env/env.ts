// A benchmark written against automemo's public API only: vaults whose family decides how the code is made from
// the vault's number. The agent does not know the rule; without memory it tries the methods in a fixed order
// (reward 1 / attempts), with a memory of past episodes it can repeat the method that opened a sibling vault.
import { defineEnvironment, type AgentRun, type EnvTask, type MemoryPayload } from 'automemo';

const METHODS = {
  reverse: (n: string) => [...n].reverse().join(''),
  sum: (n: string) => String([...n].reduce((s, d) => s + Number(d), 0)),
  rotate: (n: string) => n.slice(1) + n[0],
  double: (n: string) => String(Number(n) * 2),
} as const;
type Method = keyof typeof METHODS;
const ORDER = Object.keys(METHODS) as Method[];

// Each family's secret method: what a memory should carry from one vault to its siblings.
const FAMILIES: Record<string, Method> = { ember: 'double', frost: 'rotate', moss: 'sum', tide: 'reverse' };

interface Truth {
  method: Method;
  number: string;
}

/** A small seeded generator, so the tasks depend on the run's seed only. */
function numbers(seed: number, count: number): string[] {
  let x = (seed * 2654435761 + 12345) >>> 0;
  const out: string[] = [];
  while (out.length < count) {
    x = (x * 1664525 + 1013904223) >>> 0;
    const n = String(1000 + (x % 9000));
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

function tasks(seed: number, perFamily: number): EnvTask<Truth>[] {
  return Object.entries(FAMILIES).flatMap(([family, method], f) =>
    numbers(seed * 31 + f, perFamily).map((number, i) => ({
      id: `${family}-${i}`,
      scenario: family,
      instruction: `Open the ${family} vault number ${number}: find its code and enter it.`,
      meta: { family, number },
      truth: { method, number },
    })),
  );
}

/**
 * The method past episodes in the payload point to, those of this family first: a step that opened a vault
 * ("use sum -> opened"), or a vault number shown with its code ("vault number 4821 … answer: 15").
 */
function rememberedMethod(memory: MemoryPayload, family: string): Method | undefined {
  const blocks = memory.text.split(/\n\s*\n/);
  const ours = blocks.filter((b) => b.includes(family));
  for (const group of [ours, blocks]) {
    const counts = new Map<Method, number>();
    const vote = (method: Method) => counts.set(method, (counts.get(method) ?? 0) + 1);
    for (const block of group) {
      for (const m of block.matchAll(/use (\w+)\W+opened/g)) if ((m[1] as string) in METHODS) vote(m[1] as Method);
      for (const m of block.matchAll(/vault number (\d+)[^\n]*?answer\W+(\d+)/g)) {
        for (const method of ORDER) if (METHODS[method](m[1] as string) === m[2]) vote(method);
      }
    }
    const best = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
    if (best) return best[0];
  }
  return undefined;
}

export default defineEnvironment({
  name: 'vaults',
  summary: 'vault codes whose rule depends on the vault family (an example of a module environment)',
  options: '<vaults per family>',
  load(ctx) {
    const perFamily = ctx.arg ? Number(ctx.arg) : 24;
    if (!Number.isInteger(perFamily) || perFamily < 4 || perFamily > 200) throw new Error(`vaults per family must be a whole number from 4 to 200; got "${ctx.arg}"`);
    return {
      tasks: tasks(ctx.seed, perFamily),
      description:
        'Each task asks for the code of a vault. A vault family (ember, frost, moss, tide) makes its codes from the vault number by one secret ' +
        'method (reverse, sum, rotate or double). The agent acts with steps "use <method>", each answered "opened" or "locked"; it tries ' +
        'methods in a fixed order unless its memory shows a method that opened a vault, preferring episodes that name the same family.',
      reward: '1 / attempts when the final code is right (1.0 = opened at the first try)',
      split: { trainShare: 0.34, validationShare: 0.5 },
      agent: {
        id: 'vault-agent/1',
        mode: 'offline',
        deterministic: true,
        async run(task: EnvTask<Truth>, memory: MemoryPayload): Promise<AgentRun> {
          const truth = task.truth as Truth;
          const first = rememberedMethod(memory, task.scenario);
          const order = first ? [first, ...ORDER.filter((m) => m !== first)] : ORDER;
          const steps: AgentRun['steps'] = [];
          for (const method of order) {
            const code = METHODS[method](truth.number);
            const opened = code === METHODS[truth.method](truth.number);
            steps.push({
              action: `use ${method}`,
              result: opened ? 'opened' : 'locked',
              thought: first === method ? 'memory shows this method opening a vault' : 'trying the next method',
            });
            if (opened) return { answer: code, steps };
          }
          return { steps };
        },
      },
      check(task: EnvTask<Truth>, run: AgentRun) {
        const truth = task.truth as Truth;
        const right = run.answer === METHODS[truth.method](truth.number);
        return { reward: right ? 1 / run.steps.length : 0, success: right, metrics: { attempts: run.steps.length } };
      },
      // Ground truth for the meta agent (never for programs): the accepted answers, and a note.
      explain: (task: EnvTask<Truth>) => ({
        gold: [(task.truth as Truth).method],
        notes: [`${task.scenario} vaults open with this method`],
      }),
    };
  },
});
