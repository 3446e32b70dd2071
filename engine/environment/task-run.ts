// One task through the agent and the checker: the agent's run checked at the edge (it is someone else's code), its
// failures turned into infrastructure failures, and the verdict — the checker's, or the agent's own score when
// there is no checker — turned into a reward in [0, 1], or an error naming the task when it is not one.
import { z } from 'zod';
import type { MemoryPayload } from '../../memo-programs/contract.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import { TimeLimitError, withinTime } from '../../foundation/time-limit.ts';
import { InfraError } from './contract.ts';
import { DEFAULT_ENVIRONMENT_LIMITS, type EnvironmentLimits } from './define.ts';
import type { AgentRun, EnvTask, TaskEnvironmentSpec, Verdict } from './task-spec.ts';

export interface ScoredRun {
  run: AgentRun;
  reward: number;
  success: boolean;
  /** For the evidence (may name the answer). */
  note?: string;
  /** What a recorded episode says of its outcome (programs see it). */
  feedback: string;
  metrics: Record<string, number>;
}

const text = z.string().max(8_000_000);
const Metrics = z
  .record(z.string().max(200), z.number().finite())
  .refine((m) => Object.keys(m).length <= 100, 'at most 100 metrics');

const AgentRunSchema = z.object(
  {
    answer: text.optional(),
    steps: z
      .array(
        z.object({
          action: z.string({ error: 'action is missing (a string)' }).max(1_000_000),
          thought: text.optional(),
          result: text.optional(),
          error: text.optional(),
          observation: z
            .object({
              text: text.optional(),
              images: z
                .array(
                  z.object({
                    bytes: z.custom<Uint8Array>((v) => v instanceof Uint8Array && v.byteLength > 0, {
                      message: 'bytes must be a non-empty Uint8Array',
                    }),
                    mime: z.enum(['image/png', 'image/jpeg', 'image/webp', 'image/gif']),
                    caption: z.string().max(2000).optional(),
                  }),
                )
                .max(64)
                .optional(),
            })
            .optional(),
        }),
        { error: 'steps is missing (an array, possibly empty)' },
      )
      .max(10_000, 'at most 10,000 steps'),
    tokens: z.object({ prompt: z.number().nonnegative(), completion: z.number().nonnegative() }).optional(),
    reward: z.number().optional(),
    success: z.boolean().optional(),
    note: z.string().max(100_000).optional(),
    metrics: Metrics.optional(),
  },
  { error: 'the agent returned no run object ({ answer?, steps, ... })' },
);

const VerdictObject = z.object({
  reward: z.number({ error: 'reward is missing (a number in [0, 1])' }),
  success: z.boolean().optional(),
  note: z.string().max(100_000).optional(),
  feedback: z.string().max(10_000).optional(),
  metrics: Metrics.optional(),
});

const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split('\n')[0];

/**
 * The agent's run, within its time limit; an error it throws or running out of time is the environment failing
 * (InfraError: never the program's), a run of the wrong shape an error naming the task. `who` names the environment
 * in messages: `environment "vaults"`, with its module when it has one.
 */
export async function runAgent<T>(
  who: string,
  spec: TaskEnvironmentSpec<T>,
  task: EnvTask<T>,
  payload: MemoryPayload,
  images: ImageStore,
  limits: EnvironmentLimits = {},
): Promise<AgentRun> {
  let value: unknown;
  try {
    value = await withinTime(
      `${who}: agent ${spec.agent.id} on task ${JSON.stringify(task.id)}`,
      limits.agentMs ?? DEFAULT_ENVIRONMENT_LIMITS.agentMs,
      () => spec.agent.run(task, payload, { images }),
      { setting: 'limits.agentMs' },
    );
  } catch (err) {
    if (err instanceof InfraError) throw err;
    if (err instanceof TimeLimitError) throw new InfraError(err.message, { cause: err });
    throw new InfraError(
      `${who}: its agent ${spec.agent.id} threw on task ${JSON.stringify(task.id)}: ${firstLine(err)}`,
      { cause: err },
    );
  }
  const r = AgentRunSchema.safeParse(value);
  if (!r.success) {
    const problems = r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(run)'}: ${i.message}`);
    throw new Error(
      `${who}: agent ${spec.agent.id} returned an unusable run for task ${JSON.stringify(task.id)}: ${problems.join('; ')}`,
    );
  }
  return value as AgentRun;
}

function rewardProblem(reward: number): boolean {
  return typeof reward !== 'number' || !Number.isFinite(reward) || reward < 0 || reward > 1;
}

/** The verdict as reward, success, note and feedback; an error naming the task when it is not in [0, 1]. */
function normalise(who: string, taskId: string, from: string, verdict: Verdict): Omit<ScoredRun, 'run'> {
  const bad = (what: string) =>
    new Error(
      `${who}: ${from} gave task ${JSON.stringify(taskId)} ${what}; rewards are numbers in [0, 1] (or true/false)`,
    );
  if (typeof verdict === 'boolean')
    return {
      reward: verdict ? 1 : 0,
      success: verdict,
      feedback: verdict ? 'task accepted' : 'task rejected',
      metrics: {},
    };
  if (typeof verdict === 'number') {
    if (rewardProblem(verdict)) throw bad(`a reward of ${verdict}`);
    return {
      reward: verdict,
      success: verdict === 1,
      feedback: verdict === 1 ? 'task accepted' : 'task rejected',
      metrics: {},
    };
  }
  const r = VerdictObject.safeParse(verdict);
  if (!r.success)
    throw bad(
      `an unusable verdict (${r.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(verdict)'}: ${i.message}`)
        .join('; ')})`,
    );
  const v = r.data;
  if (rewardProblem(v.reward)) throw bad(`a reward of ${v.reward}`);
  const success = v.success ?? v.reward === 1;
  return {
    reward: v.reward,
    success,
    ...(v.note ? { note: v.note } : {}),
    feedback: v.feedback ?? (success ? 'task accepted' : 'task rejected'),
    metrics: v.metrics ?? {},
  };
}

/**
 * Runs the task and scores it: with the checker when the spec has one, else with the agent's own reward. A checker
 * that runs out of time leaves the task unscored (InfraError), naming it.
 */
export async function runAndScore<T>(
  who: string,
  spec: TaskEnvironmentSpec<T>,
  task: EnvTask<T>,
  payload: MemoryPayload,
  images: ImageStore,
  limits: EnvironmentLimits = {},
): Promise<ScoredRun> {
  const run = await runAgent(who, spec, task, payload, images, limits);
  if (spec.check) {
    const check = spec.check;
    let verdict: Verdict;
    try {
      verdict = await withinTime(
        `${who}: check of task ${JSON.stringify(task.id)}`,
        limits.checkMs ?? DEFAULT_ENVIRONMENT_LIMITS.checkMs,
        () => check(task, run),
        { setting: 'limits.checkMs' },
      );
    } catch (err) {
      if (err instanceof InfraError) throw err;
      if (err instanceof TimeLimitError) throw new InfraError(err.message, { cause: err });
      throw new Error(`${who}: check failed on task ${JSON.stringify(task.id)}: ${firstLine(err)}`, { cause: err });
    }
    const v = normalise(who, task.id, 'check', verdict);
    const note = [v.note, run.note].filter(Boolean).join('; ');
    return { run, ...v, ...(note ? { note } : {}), metrics: { ...(run.metrics ?? {}), ...v.metrics } };
  }
  if (run.reward === undefined) {
    throw new Error(
      `${who}: task ${JSON.stringify(task.id)} has no score: the spec has no check(task, run) and agent ${spec.agent.id} set no reward; give the spec a check, or have the agent score its own run`,
    );
  }
  const v = normalise(who, task.id, `agent ${spec.agent.id}`, {
    reward: run.reward,
    ...(run.success !== undefined ? { success: run.success } : {}),
    ...(run.note ? { note: run.note } : {}),
  });
  return { run, ...v, metrics: run.metrics ?? {} };
}
