// Dense-only memory: every step of every episode is embedded (one batched embed call per episode) into an HNSW
// index; retrieve embeds the task on the host and returns the nearest steps, grouped by episode, within the budget.
import { defineMemo, type VectorIndex } from 'automemo/contract';
import { type EpisodeHeading, episodeHeading, episodeUnits, renderUnits, type Unit } from 'automemo/lib/units';

export const config = {
  topK: 40,
  /** Cosine similarity a step needs to be shown. */
  minSimilarity: 0.1,
  /** Embed the episode heading with each step. */
  embedHeading: false,
  /** Texts per embed call (the host allows 512). */
  batch: 256,
};

let index: VectorIndex | undefined;
const units: Unit[] = [];
const headings = new Map<string, EpisodeHeading>();

export default defineMemo({
  async update(episode, ctx) {
    headings.set(episode.taskId, episodeHeading(episode, headings.size));
    const fresh = episodeUnits(episode);
    for (let i = 0; i < fresh.length; i += config.batch) {
      const batch = fresh.slice(i, i + config.batch);
      const vectors = await ctx.embed(batch.map((u) => (config.embedHeading ? `${episode.instruction}\n${u.text}` : u.text)));
      index ??= await ctx.vectors.create({ dim: vectors[0]?.length ?? 512, space: 'cosine', maxElements: 4096 });
      await index.addMany(batch.map((_, j) => ({ label: units.length + j, vector: vectors[j] as number[] })));
      units.push(...batch);
    }
  },
  async retrieve(task, ctx) {
    if (!index || units.length === 0) return { text: '', images: [] };
    const hits = (await index.searchText(task.instruction, config.topK)).filter((h) => h.score >= config.minSimilarity);
    const ranked = hits.map((h) => units[h.label]).filter((u): u is Unit => u !== undefined);
    const { text, shown } = renderUnits(ranked, headings, ctx.budget.maxChars);
    return { text, images: [], metadata: { units: shown.map((u) => u.id) } };
  },
});
