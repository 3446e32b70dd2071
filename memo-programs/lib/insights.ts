// Insights above the units: the notes the memo model wrote of each chosen episode (the store's `insights` option),
// shown first as G-Memory shows them, within a share of the budget; packing leaves that share out of its own.
import { type RetrievalState, named, type Stage } from './retrieval-state.ts';
import { declareStage, float } from './tunables.ts';

export const INSIGHTS_PREAMBLE = declareStage({
  name: 'insightsPreamble',
  role: 'preamble',
  summary: 'the chosen episodes\' insights above the units, within a share of the budget',
  options: { share: float(1 / 3, [0, 1], [0.1, 0.5]) },
  needs: 'insights',
});

/**
 * Stage: "Insights:" and the insights of the episodes a selection chose (episodeSearch), else of the top hits' episodes,
 * one per line, cut to `share` of the budget (default a third); empty when none has insights.
 * @reads episodes, hits, store
 * @writes preamble (the insights text, '' when none: packing then still leaves 2 characters out of its budget)
 */
export function insightsPreamble(options: { share?: number } = {}): Stage {
  const { share } = INSIGHTS_PREAMBLE.resolve(options);
  return named('insightsPreamble', (state: RetrievalState) => {
    const store = state.store;
    const episodes = state.episodes ?? [...new Set(state.hits.slice(0, 20).map((h) => store.units[h.label]?.source ?? -1))].filter((s) => s >= 0);
    const insights = episodes.map((s) => store.sources[s]?.insight ?? '').filter(Boolean);
    // The small epsilon keeps a share of 1/3 of 6,000 at 2,000, not 1,999 (1/3 is not exact in floating point).
    state.preamble = insights.length ? `Insights:\n${insights.join('\n')}`.slice(0, Math.floor(state.ctx.budget.maxChars * share + 1e-9)) : '';
  });
}
