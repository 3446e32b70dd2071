// ReasoningBank-style memory: each episode is distilled into a few memory items — strategies from successes,
// lessons from failures, key facts from conversations — each {title, content}. Items are embedded; retrieve
// returns the items nearest to the task. Distillation uses the memo model when one is configured; offline (the
// memo model answers `offline: true`) it is deterministic: facts are windows of consecutive steps, strategies
// are the action sequence, lessons the failing steps and the checker's note.
import { defineMemo, type EpisodeRecorder, type MemoContext, type VectorIndex } from 'automemo/contract';
import { isDialogue, stepText } from 'automemo/lib/units';

export const config = {
  topK: 12,
  minSimilarity: 0.15,
  /** Steps per offline fact item. */
  windowSteps: 3,
  /** Items the model is asked for per episode. */
  maxItemsPerEpisode: 6,
  transcriptChars: 6000,
};

interface Item {
  title: string;
  content: string;
  source: string;
}

const items: Item[] = [];
let index: VectorIndex | undefined;

const DISTILL =
  'You distill reusable memory from one episode of an agent (or one conversation session). Return JSON ' +
  '{"items":[{"title": string, "content": string}]} with at most N items. For a successful task: the strategy ' +
  'that worked, as steps another agent can reuse with different arguments. For a failed task: the lesson — what ' +
  'went wrong and what to do instead. For a conversation: the facts stated (who did what, when, preferences, ' +
  'plans), with names and dates written out. Keep each content under 400 characters.';

function offlineItems(ep: EpisodeRecorder): Item[] {
  const steps = ep.steps.map(stepText);
  if (isDialogue(ep)) {
    const out: Item[] = [];
    for (let i = 0; i < steps.length; i += config.windowSteps) {
      out.push({ title: `${ep.instruction} (part ${i / config.windowSteps + 1})`, content: steps.slice(i, i + config.windowSteps).join('\n'), source: ep.taskId });
    }
    return out;
  }
  if (ep.outcome.success) {
    return [{ title: `Strategy: ${ep.instruction}`, content: `Steps that worked: ${steps.join(' ; ')}${ep.answer ? ` ; answer: ${ep.answer}` : ''}`.slice(0, 1200), source: ep.taskId }];
  }
  const failing = ep.steps.filter((s) => s.error).map(stepText);
  return [
    {
      title: `Lesson: ${ep.instruction}`,
      content: `This failed${ep.outcome.note ? ` (${ep.outcome.note})` : ''}. Steps taken: ${steps.join(' ; ')}${failing.length ? ` ; errors: ${failing.join(' ; ')}` : ''}`.slice(0, 1200),
      source: ep.taskId,
    },
  ];
}

async function distill(ep: EpisodeRecorder, ctx: MemoContext): Promise<Item[]> {
  const transcript = ep.steps.map(stepText).join('\n').slice(0, config.transcriptChars);
  const verdict = isDialogue(ep) ? 'conversation session' : ep.outcome.success ? 'SUCCESS' : `FAILURE${ep.outcome.note ? `: ${ep.outcome.note}` : ''}`;
  const reply = await ctx.llm.chat({
    messages: [
      { role: 'system', content: DISTILL.replace('N items', `${config.maxItemsPerEpisode} items`) },
      { role: 'user', content: `Task: ${ep.instruction}\nOutcome: ${verdict}\n${transcript}` },
    ],
    json: true,
    maxTokens: 800,
  });
  if (reply.offline) return offlineItems(ep);
  try {
    const parsed = JSON.parse(reply.text) as { items?: { title?: unknown; content?: unknown }[] };
    const got = (parsed.items ?? [])
      .filter((i) => typeof i.title === 'string' && typeof i.content === 'string')
      .slice(0, config.maxItemsPerEpisode)
      .map((i) => ({ title: i.title as string, content: i.content as string, source: ep.taskId }));
    return got.length ? got : offlineItems(ep);
  } catch {
    return offlineItems(ep);
  }
}

export default defineMemo({
  async update(episode, ctx) {
    const fresh = await distill(episode, ctx);
    if (fresh.length === 0) return;
    const vectors = await ctx.embed(fresh.map((i) => `${i.title}\n${i.content}`));
    index ??= await ctx.vectors.create({ dim: vectors[0]?.length ?? 512, space: 'cosine', maxElements: 2048 });
    await index.addMany(fresh.map((_, j) => ({ label: items.length + j, vector: vectors[j] as number[] })));
    items.push(...fresh);
  },
  async retrieve(task, ctx) {
    if (!index || items.length === 0) return { text: '', images: [] };
    const hits = (await index.searchText(task.instruction, config.topK)).filter((h) => h.score >= config.minSimilarity);
    const parts: string[] = [];
    let used = 0;
    for (const h of hits) {
      const item = items[h.label];
      if (!item) continue;
      const block = `## ${item.title}\n${item.content}`;
      if (used + block.length + 2 > ctx.budget.maxChars) continue;
      parts.push(block);
      used += block.length + 2;
    }
    return { text: parts.join('\n\n'), images: [], metadata: { items: hits.map((h) => items[h.label]?.source ?? null) } };
  },
});
