// Evidence for the meta agent, within the paper's limits: per cluster of tasks (scenario: site, template, family,
// category), the 2 best and 2 worst outcomes with the memory each task got (at most 20,000 characters and 2
// images of retrieved memory each), what the agent did, and — for these validation tasks — the ground truth.
import type { Explanation } from '../environment/contract.ts';
import { renderExplanation } from '../environment/explanation.ts';
import type { TaskRecord } from '../evaluate/evaluate.ts';
import type { TaskImages } from './evidence-images.ts';
import { LIMITS } from './evidence-limits.ts';
import type { ModelParent } from './types.ts';

/**
 * An agent's steps as lines: action, then what it returned. Results are clipped, except the last one (what the
 * answer was read from) and errors, which decide an outcome more often than anything else.
 */
export function renderSteps(steps: { action: string; observation?: string }[]): string {
  const last = steps.reduce((at, s, i) => (s.observation ? i : at), -1);
  return steps
    .map((s, i) => {
      const room = i === last || s.observation?.startsWith('error') ? LIMITS.decisiveChars : LIMITS.resultChars;
      const obs = s.observation?.replace(/\s+/g, ' ');
      return `${i + 1}. ${s.action}${obs ? ` -> ${obs.length > room ? `${obs.slice(0, room)}…` : obs}` : ''}`;
    })
    .join('\n');
}

export interface EvidenceCase {
  taskId: string;
  reward: number;
  memory: string;
  answer?: string;
  note?: string;
  groundTruth?: Explanation;
  programError?: string;
  /** What the agent did: its steps, each with what it returned (clipped). */
  actions?: string;
  /** Image files of the episode and of the memory, within the limits. */
  images?: TaskImages;
}

export interface Cluster {
  scenario: string;
  tasks: number;
  meanReward: number;
  successes: EvidenceCase[];
  failures: EvidenceCase[];
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}\n… [${s.length - n} more characters]` : s);

function toCase(t: TaskRecord, ctx: ModelParent): EvidenceCase {
  const c: EvidenceCase = { taskId: t.taskId, reward: t.reward ?? 0, memory: clip(ctx.payloads.get(t.taskId) ?? '', LIMITS.memoryChars) };
  // Offline LoCoMo has no agent: its "answer" is a line quoted from the payload, which would read as a model's reply.
  if (t.answer !== undefined && ctx.guide?.agentAnswers !== false) c.answer = t.answer;
  if (t.note) c.note = t.note;
  if (t.programError) c.programError = t.programError;
  const actions = ctx.trajectories?.get(t.taskId);
  if (actions) c.actions = clip(actions, LIMITS.actionChars);
  const images = ctx.images?.get(t.taskId);
  if (images) c.images = images;
  const gt = ctx.explain(t.taskId);
  if (gt) c.groundTruth = gt;
  return c;
}

/**
 * Groups the parent's evaluated tasks by scenario (the environment's metadata, or CluE's clusters through
 * `groupOf`); one cluster when there is a single scenario.
 */
export function clusters(ctx: ModelParent, groupOf: (t: TaskRecord) => string = (t) => t.scenario): Cluster[] {
  const tasks = (ctx.evaluation?.tasks ?? []).filter((t) => t.reward !== null);
  const groups = new Map<string, TaskRecord[]>();
  for (const t of tasks) groups.set(groupOf(t), [...(groups.get(groupOf(t)) ?? []), t]);
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([scenario, list]) => {
      const sorted = [...list].sort((a, b) => (b.reward as number) - (a.reward as number) || a.taskId.localeCompare(b.taskId));
      const successes = sorted.filter((t) => (t.reward as number) >= 0.5).slice(0, LIMITS.successes);
      const failures = sorted.filter((t) => (t.reward as number) < 0.5).reverse().slice(0, LIMITS.failures);
      return {
        scenario,
        tasks: list.length,
        meanReward: list.reduce((s, t) => s + (t.reward as number), 0) / list.length,
        successes: successes.map((t) => toCase(t, ctx)),
        failures: failures.map((t) => toCase(t, ctx)),
      };
    });
}

export function renderCluster(c: Cluster): string {
  const cases = (label: string, list: EvidenceCase[]) =>
    list
      .map(
        (x, i) =>
          `### ${label} ${i + 1}: task ${x.taskId} (reward ${x.reward.toFixed(2)})\n` +
          (x.groundTruth ? `Ground truth:\n${renderExplanation(x.groundTruth)}\n` : '') +
          (x.answer !== undefined ? `Agent's answer: ${x.answer}\n` : '') +
          (x.note ? `Checker: ${x.note}\n` : '') +
          (x.programError ? `Program error: ${x.programError}\n` : '') +
          (x.actions ? `What the agent did:\n${x.actions}\n` : '') +
          (x.images?.episode.length || x.images?.payload.length ? `Images attached below: ${x.images.episode.length} of the episode, ${x.images.payload.length} of the memory.\n` : '') +
          `Memory the program returned:\n"""\n${x.memory || '(empty)'}\n"""`,
      )
      .join('\n\n');
  return `## Cluster "${c.scenario}": ${c.tasks} tasks, mean reward ${c.meanReward.toFixed(3)}\n\n${cases('Success', c.successes)}\n\n${cases('Failure', c.failures)}`;
}
