// Distilled memory items, as ReasoningBank keeps them: each episode becomes a few {title, content} items — the
// strategy that worked (a success), the lesson with the checker's note (a failure), the facts stated (a conversation).
// With a memo model the model distills them; offline (the model answers `offline: true`) they are made by rule: a
// strategy is the action sequence and the answer, a lesson the steps taken, the note and the errors, and a
// conversation's facts are windows of consecutive turns.
import type { EpisodeRecorder, MemoContext } from '../contract.ts';
import { stepText } from './units.ts';

export interface Item {
  title: string;
  content: string;
}

export interface DistillOptions {
  /** Turns per offline fact item of a conversation. */
  windowSteps: number;
  /** Items the model is asked for per episode, at most. */
  maxItems: number;
  /** Characters of the episode's transcript the model reads. */
  transcriptChars: number;
}

export const DISTILL_PROMPT =
  'You distill reusable memory from one episode of an agent (or one conversation session). Return JSON ' +
  '{"items":[{"title": string, "content": string}]} with at most N items. For a successful task: the strategy ' +
  'that worked, as steps another agent can reuse with different arguments. For a failed task: the lesson — what ' +
  'went wrong and what to do instead. For a conversation: the facts stated (who did what, when, preferences, ' +
  'plans), with names and dates written out. Keep each content under 400 characters.';

const isDialogue = (ep: EpisodeRecorder) => ep.meta.kind === 'dialogue';

/** The items of an episode by rule (no model). */
export function offlineItems(ep: EpisodeRecorder, windowSteps: number): Item[] {
  const steps = ep.steps.map(stepText);
  if (isDialogue(ep)) {
    const out: Item[] = [];
    for (let i = 0; i < steps.length; i += windowSteps) out.push({ title: `${ep.instruction} (part ${i / windowSteps + 1})`, content: steps.slice(i, i + windowSteps).join('\n') });
    return out;
  }
  if (ep.outcome.success) return [{ title: `Strategy: ${ep.instruction}`, content: `Steps that worked: ${steps.join(' ; ')}${ep.answer ? ` ; answer: ${ep.answer}` : ''}`.slice(0, 1200) }];
  const failing = ep.steps.filter((s) => s.error).map(stepText);
  return [
    {
      title: `Lesson: ${ep.instruction}`,
      content: `This failed${ep.outcome.note ? ` (${ep.outcome.note})` : ''}. Steps taken: ${steps.join(' ; ')}${failing.length ? ` ; errors: ${failing.join(' ; ')}` : ''}`.slice(0, 1200),
    },
  ];
}

/** The items of an episode: the memo model's, or by rule when it is offline or its reply is unusable. */
export async function distillItems(ep: EpisodeRecorder, ctx: MemoContext, o: DistillOptions): Promise<Item[]> {
  const transcript = ep.steps.map(stepText).join('\n').slice(0, o.transcriptChars);
  const verdict = isDialogue(ep) ? 'conversation session' : ep.outcome.success ? 'SUCCESS' : `FAILURE${ep.outcome.note ? `: ${ep.outcome.note}` : ''}`;
  const reply = await ctx.llm.chat({
    messages: [
      { role: 'system', content: DISTILL_PROMPT.replace('N items', `${o.maxItems} items`) },
      { role: 'user', content: `Task: ${ep.instruction}\nOutcome: ${verdict}\n${transcript}` },
    ],
    json: true,
    maxTokens: 800,
  });
  if (reply.offline) return offlineItems(ep, o.windowSteps);
  try {
    const parsed = JSON.parse(reply.text) as { items?: { title?: unknown; content?: unknown }[] };
    // A reply of the wrong shape throws here and falls back to the rule, as ReasoningBank does.
    const got = (parsed.items ?? [])
      .filter((i) => typeof i.title === 'string' && typeof i.content === 'string')
      .slice(0, o.maxItems)
      .map((i) => ({ title: i.title as string, content: i.content as string }));
    return got.length ? got : offlineItems(ep, o.windowSteps);
  } catch {
    return offlineItems(ep, o.windowSteps);
  }
}

/** G-Memory's insight prompt: the few most reusable insights of an episode, one per line. */
export const INSIGHT_PROMPT = 'Write the 2-3 most reusable insights from this episode (facts, strategies or lessons), one per line.';

/** An episode's insights as the memo model writes them (offline: its extractive fallback), cut to `maxChars`; '' when none. */
export async function episodeInsight(ep: EpisodeRecorder, ctx: MemoContext, maxChars: number): Promise<string> {
  const texts = ep.steps.map(stepText);
  const reply = await ctx.llm.chat({
    messages: [
      { role: 'system', content: INSIGHT_PROMPT },
      { role: 'user', content: `${ep.instruction}\n${texts.join('\n').slice(0, 4000)}` },
    ],
    maxTokens: 200,
  });
  return reply.text.trim().slice(0, maxChars);
}
