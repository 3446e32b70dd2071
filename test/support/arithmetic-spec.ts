// A small procedural task spec for the engine's task environment: arithmetic questions in three scenarios (add,
// sub, mul), every other task with a picture, an offline agent that "looks" (a step that produces an image) and
// answers, and an exact checker. Hooks count the agent's runs and make it fail like broken machinery would.
import sharp from 'sharp';
import { InfraError } from '../../engine/environment/contract.ts';
import type { AgentRun, EnvTask, TaskAgent, TaskEnvironmentSpec } from '../../engine/environment/task-spec.ts';

export interface ArithmeticTruth {
  answer: number;
}

/** A distinct small PNG per key (its colour comes from the key). */
export async function png(key: string): Promise<Buffer> {
  let h = 0;
  for (const ch of key) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return sharp({ create: { width: 8, height: 8, channels: 3, background: { r: h & 255, g: (h >> 8) & 255, b: (h >> 16) & 255 } } }).png().toBuffer();
}

const OPS = { add: (a: number, b: number) => a + b, sub: (a: number, b: number) => a - b, mul: (a: number, b: number) => a * b } as const;
const SIGN = { add: '+', sub: '-', mul: '*' } as const;

export async function arithmeticTasks(perScenario = 10): Promise<EnvTask<ArithmeticTruth>[]> {
  const tasks: EnvTask<ArithmeticTruth>[] = [];
  for (const op of Object.keys(OPS) as (keyof typeof OPS)[]) {
    for (let i = 0; i < perScenario; i++) {
      const a = 3 + i;
      const b = 2 * i + 1;
      tasks.push({
        id: `${op}-${i}`,
        scenario: op,
        instruction: `What is ${a} ${SIGN[op]} ${b}?`,
        context: `a worksheet, question ${i + 1}`,
        ...(i % 2 === 0 ? { images: [{ bytes: await png(`task ${op} ${i}`), mime: 'image/png' as const, caption: `worksheet ${op} ${i}` }] } : {}),
        meta: { op, index: i },
        truth: { answer: OPS[op](a, b) },
      });
    }
  }
  return tasks;
}

export interface AgentHooks {
  /** Runs per task id. */
  runs: Map<string, number>;
  /** Infrastructure failures still to throw, per task id (Infinity: always). */
  failures: Map<string, number>;
  /** Runs under way now, and the most at once. */
  inFlight: number;
  maxInFlight: number;
}

export function hooks(): AgentHooks {
  return { runs: new Map(), failures: new Map(), inFlight: 0, maxInFlight: 0 };
}

/** Reads the numbers off the instruction and computes; with memory it says so in its note. */
export function arithmeticAgent(h: AgentHooks, id = 'arith-agent-v1'): TaskAgent<ArithmeticTruth> {
  return {
    id,
    async run(task, memory): Promise<AgentRun> {
      h.runs.set(task.id, (h.runs.get(task.id) ?? 0) + 1);
      h.inFlight++;
      h.maxInFlight = Math.max(h.maxInFlight, h.inFlight);
      try {
        await new Promise((r) => setTimeout(r, 5));
        const left = h.failures.get(task.id) ?? 0;
        if (left > 0) {
          h.failures.set(task.id, left - 1);
          throw new InfraError(`calculator offline for ${task.id}`);
        }
        const m = /(\d+) ([+*-]) (\d+)/.exec(task.instruction);
        const [a, op, b] = [Number(m?.[1]), m?.[2], Number(m?.[3])];
        const answer = op === '+' ? a + b : op === '-' ? a - b : a * b;
        return {
          answer: String(answer),
          steps: [
            { action: 'look at the worksheet', observation: { text: 'numbers seen', images: [{ bytes: await png(`look ${task.id}`), mime: 'image/png', caption: 'what the agent saw' }] } },
            { action: `answer ${answer}`, result: 'done' },
          ],
          note: memory.text ? 'memory: used' : 'memory: none',
          metrics: { looks: 1 },
        };
      } finally {
        h.inFlight--;
      }
    },
  };
}

export async function arithmeticSpec(h: AgentHooks, overrides: Partial<TaskEnvironmentSpec<ArithmeticTruth>> = {}): Promise<TaskEnvironmentSpec<ArithmeticTruth>> {
  return {
    tasks: await arithmeticTasks(),
    agent: arithmeticAgent(h),
    check: (task, run) => {
      const ok = Number(run.answer) === task.truth?.answer;
      return { reward: ok ? 1 : 0, note: `expected ${task.truth?.answer}` };
    },
    description: 'Arithmetic worksheets: add, subtract, multiply.',
    reward: 'exact number',
    explain: (task) => ({ gold: [String(task.truth?.answer)] }),
    data: { generator: 'arithmetic-v1' },
    ...overrides,
  };
}
