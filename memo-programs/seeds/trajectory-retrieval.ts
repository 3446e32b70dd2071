// Trajectory retrieval (the ALMA / AutoMMemo baseline): embed each past task's instruction; for a new task,
// return the most similar past episodes above a similarity threshold as readable action lists with outcomes.
import { defineMemo, type EpisodeRecorder, type VectorIndex } from 'automemo/contract';

export const config = {
  /** Episodes returned per task. */
  topK: 3,
  /** Cosine similarity an episode needs to be shown at all. */
  minSimilarity: 0.3,
  /** Steps shown per episode (the first ones; the rest are summarised by count). */
  maxSteps: 15,
  /** Characters per rendered step result. */
  maxResultChars: 160,
  /** Show failed episodes too, marked as failures. */
  includeFailures: true,
};

interface Stored {
  taskId: string;
  success: boolean;
  text: string;
}

const stored: Stored[] = [];
let index: VectorIndex | undefined;

function clip(s: string, n: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
}

function render(ep: EpisodeRecorder): string {
  const verdict = ep.outcome.success ? 'SUCCESS' : 'FAILURE';
  const lines = [`Task: ${ep.instruction}`, `Outcome: ${verdict} (reward ${ep.outcome.reward.toFixed(2)})`];
  if (ep.outcome.note) lines.push(`Note: ${clip(ep.outcome.note, 200)}`);
  lines.push('Actions:');
  for (const step of ep.steps.slice(0, config.maxSteps)) {
    let line = `  ${step.index + 1}. ${clip(step.action, 200)}`;
    if (step.result) line += ` -> ${clip(step.result, config.maxResultChars)}`;
    if (step.error) line += ` [error: ${clip(step.error, 120)}]`;
    lines.push(line);
  }
  if (ep.steps.length > config.maxSteps) lines.push(`  ... ${ep.steps.length - config.maxSteps} more steps`);
  if (ep.answer !== undefined) lines.push(`Final answer: ${clip(ep.answer, 300)}`);
  return lines.join('\n');
}

export default defineMemo({
  async update(episode, ctx) {
    if (!config.includeFailures && !episode.outcome.success) return;
    if (!index) {
      // Learn the embedding size once, then let the host embed and index texts directly.
      const [probe] = await ctx.embed([episode.instruction]);
      index = await ctx.vectors.create({ dim: probe?.length ?? 512, space: 'cosine', maxElements: 1024 });
    }
    await index.addText(stored.length, episode.instruction);
    stored.push({ taskId: episode.taskId, success: episode.outcome.success, text: render(episode) });
  },

  async retrieve(task, ctx) {
    if (!index || stored.length === 0) return { text: '', images: [] };
    const hits = (await index.searchText(task.instruction, config.topK)).filter((h) => h.score >= config.minSimilarity);
    if (hits.length === 0) return { text: '', images: [] };
    const parts: string[] = [];
    let used = 0;
    for (const [i, hit] of hits.entries()) {
      const ep = stored[hit.label];
      if (!ep) continue;
      const block = `### Past episode ${i + 1} (similarity ${hit.score.toFixed(2)})\n${ep.text}`;
      if (used + block.length > ctx.budget.maxChars) break;
      parts.push(block);
      used += block.length + 2;
    }
    const text = parts.length ? `Similar past tasks, most similar first:\n\n${parts.join('\n\n')}` : '';
    return {
      text,
      images: [],
      metadata: { taskIds: hits.map((h) => stored[h.label]?.taskId ?? null), scores: hits.map((h) => Number(h.score.toFixed(4))) },
    };
  },
});
