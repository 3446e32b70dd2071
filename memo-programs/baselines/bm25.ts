// BM25-only memory: every step of every episode is a document in an incremental Okapi BM25 index (Unicode
// tokenizer); retrieve returns the best-scoring steps, grouped by episode with its heading, within the budget.
import { defineMemo } from 'automemo/contract';
import { Bm25Index } from 'automemo/lib/bm25';
import { type EpisodeHeading, episodeHeading, episodeUnits, renderUnits, type Unit } from 'automemo/lib/units';

export const config = {
  /** Candidates taken from the index before rendering. */
  topK: 40,
  /** Index the episode heading with each step (helps questions that name the task or date). */
  indexHeading: true,
};

const index = new Bm25Index();
const units = new Map<string, Unit>();
const headings = new Map<string, EpisodeHeading>();

export default defineMemo({
  update(episode) {
    const heading = episodeHeading(episode, headings.size);
    headings.set(episode.taskId, heading);
    for (const unit of episodeUnits(episode)) {
      units.set(unit.id, unit);
      index.add(unit.id, config.indexHeading ? `${unit.text} ${episode.instruction}` : unit.text);
    }
  },
  retrieve(task, ctx) {
    const ranked = index
      .search(task.instruction, config.topK)
      .map((h) => units.get(h.id))
      .filter((u): u is Unit => u !== undefined);
    const { text, shown } = renderUnits(ranked, headings, ctx.budget.maxChars);
    return { text, images: [], metadata: { units: shown.map((u) => u.id) } };
  },
});
