// Evidence for the meta agent, within the paper's limits: per cluster of tasks (scenario: site, template, family,
// category), the 2 best and 2 worst outcomes with the memory each task got (at most 2 images of retrieved memory
// each), what the agent did, and — for these validation tasks — the ground truth. The memory of all cases is shown
// within one budget of characters, spent where it informs (evidence-limits.ts, memory-excerpt.ts).
import type { Explanation } from '../environment/contract.ts';
import { renderExplanation } from '../environment/explanation.ts';
import type { TaskRecord } from '../evaluate/evaluate.ts';
import type { TaskImages } from './evidence-images.ts';
import { LIMITS } from './evidence-limits.ts';
import { goldTexts } from './gold.ts';
import { memoryExcerpt } from './memory-excerpt.ts';
import { recordsSaid, referBack, type Said, said } from './said-once.ts';
import type { ModelParent, ShownStep } from './types.ts';

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}\n… [${s.length - n} more characters]` : s);


/**
 * An agent's steps as lines: action, then what it returned, within LIMITS.actionChars. Results are clipped, except
 * the last one (what the answer was read from) and errors, which decide an outcome more often than anything else. A
 * result holding a text the case showed above (`above`: its records, the agent's answer) shows its reference there;
 * `said` is every result shown whole, for what follows (its memory) to refer back to.
 */
export function renderSteps(steps: readonly ShownStep[], above: readonly Said[] = []): { text: string; said: Said[] } {
  const last = steps.reduce((at, s, i) => (s.observation ? i : at), -1);
  const shown: Said[] = [];
  let chars = 0;
  const lines = steps.map((s, i) => {
    const room = i === last || s.observation?.startsWith('error') ? LIMITS.decisiveChars : LIMITS.resultChars;
    const obs = s.observation?.replace(/\s+/g, ' ');
    const result = obs && referBack(obs, above);
    const cut = result && result.length > room ? `${result.slice(0, room)}…` : result;
    const line = `${i + 1}. ${s.action}${cut ? ` -> ${cut}` : ''}`;
    chars += line.length + 1;
    // A result shown whole, itself and not a reference, within what the actions keep (clip below).
    if (obs && result === obs && obs.length <= room && chars <= LIMITS.actionChars + 1)
      shown.push(...said(obs, `step ${i + 1}'s result`));
    return line;
  });
  return { text: clip(lines.join('\n'), LIMITS.actionChars), said: shown };
}

export interface EvidenceCase {
  taskId: string;
  reward: number;
  /** The memory the task got, as shown: what it is made of and the lines that matter, within the case's share. */
  memory: string;
  answer?: string;
  note?: string;
  groundTruth?: Explanation;
  programError?: string;
  /** What the agent did: its steps, each with what it returned (clipped, texts shown above as references). */
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

/** A case picked for the evidence, with what its memory is shown by. */
interface Picked {
  shown: EvidenceCase;
  success: boolean;
  payload: string;
  gold: string[];
  question?: string;
  /** Texts the case shows whole above its memory: a memory line holding one shows its reference (said-once.ts). */
  said: Said[];
  /** What the cases before it showed whole, referred to the same way. */
  saidBefore: Said[];
}

/**
 * A case of `t`. `earlier`: what the cases rendered before it showed whole (each labelled with its task), which its
 * results and memory refer to as well.
 */
function toCase(t: TaskRecord, ctx: ModelParent, success: boolean, earlier: readonly Said[] = []): Picked {
  const c: EvidenceCase = { taskId: t.taskId, reward: t.reward ?? 0, memory: '' };
  const gt = ctx.explain(t.taskId);
  if (gt) c.groundTruth = gt;
  // In the order a case is rendered (renderCluster): each text whole once, the first time it is shown.
  const shown = recordsSaid(gt);
  const above = () => [...shown, ...earlier];
  // Offline LoCoMo has no agent: its "answer" is a line quoted from the payload, which would read as a model's reply.
  if (t.answer !== undefined && ctx.guide?.agentAnswers !== false) {
    c.answer = referBack(t.answer, above());
    if (c.answer === t.answer) shown.push(...said(t.answer, "the agent's answer"));
  }
  if (t.note) c.note = t.note;
  if (t.programError) c.programError = t.programError;
  const steps = ctx.trajectories?.get(t.taskId);
  if (steps?.length) {
    const actions = renderSteps(steps, above());
    c.actions = actions.text;
    shown.push(...actions.said);
  }
  const images = ctx.images?.get(t.taskId);
  if (images) c.images = images;
  const question = ctx.questions?.get(t.taskId) ?? gt?.question;
  return {
    shown: c,
    success,
    // Read up to LIMITS.memoryChars by memoryExcerpt, which says when there was more.
    payload: ctx.payloads.get(t.taskId) ?? '',
    gold: goldTexts(gt),
    ...(question !== undefined ? { question } : {}),
    said: shown,
    saidBefore: [...earlier],
  };
}

/**
 * Every case's memory within one budget: an equal share each (never below `caseMemoryMinChars`), then what the
 * cases that needed less left over, shared among those that ran out of room.
 */
function spendMemoryBudget(picked: Picked[], total = LIMITS.evidenceMemoryChars): void {
  if (!picked.length) return;
  const fair = Math.max(LIMITS.caseMemoryMinChars, Math.floor(total / picked.length));
  const excerpt = (p: Picked, chars: number) =>
    memoryExcerpt(p.payload, {
      gold: p.gold,
      success: p.success,
      chars,
      said: [...p.said, ...p.saidBefore],
      ...(p.question !== undefined ? { question: p.question } : {}),
    });
  const first = picked.map((p) => excerpt(p, fair));
  const spare = total - first.reduce((n, e) => n + e.used, 0);
  // A case that left lines out and filled most of its share would show more with more room.
  const wanting = picked.flatMap((_, i) => ((first[i]?.omitted ?? 0) > 0 && (first[i]?.used ?? 0) > 0.8 * fair ? [i] : []));
  const extra = wanting.length && spare > 0 ? Math.floor(spare / wanting.length) : 0;
  // What a case used plus its part of the spare: the cases together stay within the budget.
  const more = (i: number) => (first[i]?.used ?? 0) + extra;
  for (const [i, p] of picked.entries()) p.shown.memory = (extra && wanting.includes(i) ? excerpt(p, more(i)) : (first[i] as { text: string })).text;
}

/**
 * Groups the parent's evaluated tasks by scenario (the environment's metadata, or CluE's clusters through
 * `groupOf`); one cluster when there is a single scenario.
 */
export function clusters(ctx: ModelParent, groupOf: (t: TaskRecord) => string = (t) => t.scenario): Cluster[] {
  const tasks = (ctx.evaluation?.tasks ?? []).filter((t) => t.reward !== null);
  const groups = new Map<string, TaskRecord[]>();
  for (const t of tasks) groups.set(groupOf(t), [...(groups.get(groupOf(t)) ?? []), t]);
  const picked: Picked[] = [];
  // In the order renderCluster shows the cases: a text one case showed whole, a later one refers to by its task.
  const earlier: Said[] = [];
  const pick = (t: TaskRecord, success: boolean) => {
    const p = toCase(t, ctx, success, earlier);
    picked.push(p);
    earlier.push(...p.said.flatMap((x) => said(x.text, `${x.as}, task ${t.taskId}`)));
    return p.shown;
  };
  const out = [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([scenario, list]) => {
      const sorted = [...list].sort((a, b) => (b.reward as number) - (a.reward as number) || a.taskId.localeCompare(b.taskId));
      const failures = sorted.filter((t) => (t.reward as number) < 0.5).reverse().slice(0, LIMITS.failures);
      // A cluster with failures shows its best success (what to protect); one without, its two best.
      const successes = sorted.filter((t) => (t.reward as number) >= 0.5).slice(0, failures.length ? LIMITS.successesBesideFailures : LIMITS.successes);
      return {
        scenario,
        tasks: list.length,
        meanReward: list.reduce((s, t) => s + (t.reward as number), 0) / list.length,
        successes: successes.map((t) => pick(t, true)),
        failures: failures.map((t) => pick(t, false)),
      };
    });
  spendMemoryBudget(picked);
  return out;
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
          x.memory,
      )
      .join('\n\n');
  return `## Cluster "${c.scenario}": ${c.tasks} tasks, mean reward ${c.meanReward.toFixed(3)}\n\n${cases('Success', c.successes)}\n\n${cases('Failure', c.failures)}`;
}
