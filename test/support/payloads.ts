// Each task's payload and reward when a program is evaluated on part of an environment (the real evaluator: worlds,
// clocks, budget, agent and checker), for comparing two programs task by task.
import type { Environment, TaskOutcome } from '../../engine/environment/contract.ts';
import type { EvidenceWriter } from '../../engine/evaluate/evidence.ts';
import { evaluateProgram, type TaskRecord } from '../../engine/evaluate/evaluate.ts';
import type { MemoryPayload } from '../../memo-programs/contract.ts';
import { compileProgram } from '../../sandbox/compile.ts';
import type { HostServices } from '../../sandbox/primitives/index.ts';

export interface TaskPayload {
  text: string;
  images: string[];
  reward: number | null;
}

export interface PartOf {
  split: 'train' | 'test';
  worldIds?: string[];
  maxTasksPerWorld?: number;
  taskFilter?: (taskId: string) => boolean;
}

/**
 * The environment's first `worlds` worlds (default 1), each cut to its first `episodes` update episodes and `tasks`
 * tasks. With `agent: false` the agent is not run (where it is slow, a browser's): every task scores 0, and only the
 * payloads — what two programs that should agree must agree on — are worth comparing.
 */
export function partOf(env: Environment, o: { episodes: number; tasks: number; worlds?: number; agent?: boolean }): Environment {
  const skipped: TaskOutcome = { reward: 0, success: false, metrics: {}, trajectory: { steps: [] }, note: 'agent not run: payloads compared' };
  return {
    info: () => env.info(),
    worlds: async (split) =>
      (await env.worlds(split)).slice(0, o.worlds ?? 1).map((w) => ({
        ...w,
        episodes: w.episodes.slice(0, o.episodes),
        ...(w.episodeTimes ? { episodeTimes: w.episodeTimes.slice(0, o.episodes) } : {}),
        tasks: w.tasks.slice(0, o.tasks),
      })),
    run: (task, payload) => (o.agent === false ? Promise.resolve(skipped) : env.run(task, payload)),
    samples: (n) => env.samples(n),
    scenario: (id) => env.scenario(id),
  };
}

export async function payloadsOf(path: string, env: Environment, services: HostServices, part: PartOf): Promise<Map<string, TaskPayload>> {
  const compiled = await compileProgram({ entryPath: path });
  if (!compiled.ok) throw new Error(`${path} does not compile: ${compiled.issues.map((i) => i.message).join('; ')}`);
  const seen = new Map<string, TaskPayload>();
  const evidence = {
    task: async (rec: TaskRecord, payload: MemoryPayload) => {
      seen.set(rec.taskId, { text: payload.text, images: payload.images.map((i) => i.id), reward: rec.reward });
    },
    world: async () => undefined,
  } as unknown as EvidenceWriter;
  const result = await evaluateProgram(compiled.program, { env, services, evidence, ...part });
  const failed = result.tasks.filter((t) => t.programError);
  if (failed.length) throw new Error(`${path} failed ${failed.length} tasks: ${failed[0]?.programError}`);
  return seen;
}

/** Tasks whose payloads differ (text or images), with the first difference of each. */
export function differences(a: Map<string, TaskPayload>, b: Map<string, TaskPayload>): { taskId: string; at: number; a: string; b: string }[] {
  const out: { taskId: string; at: number; a: string; b: string }[] = [];
  for (const [id, x] of a) {
    const y = b.get(id);
    const ta = `${x.text}\u0000${x.images.join(',')}`;
    const tb = y ? `${y.text}\u0000${y.images.join(',')}` : '(missing)';
    if (ta === tb) continue;
    let at = 0;
    while (at < ta.length && ta[at] === tb[at]) at++;
    out.push({ taskId: id, at, a: ta.slice(Math.max(0, at - 60), at + 100), b: tb.slice(Math.max(0, at - 60), at + 100) });
  }
  for (const id of b.keys()) if (!a.has(id)) out.push({ taskId: id, at: 0, a: '(missing)', b: '' });
  return out;
}

export const meanReward = (m: Map<string, TaskPayload>) => {
  const r = [...m.values()].map((t) => t.reward).filter((x): x is number => x !== null);
  return r.length ? r.reduce((s, x) => s + x, 0) / r.length : Number.NaN;
};
