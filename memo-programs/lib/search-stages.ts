// Search stages: each query of the state (the task, and any rewrites) searched in one index, giving a ranked list
// per query for fusion.
import { type RetrievalState, named, type Stage } from './retrieval-state.ts';
import { declareStage, float, int } from './tunables.ts';

export const BM25_STAGE = declareStage({
  name: 'bm25Stage',
  role: 'search',
  summary: 'BM25 over the units, k per query',
  options: { k: int(40, [1, 1000], [5, 200]) },
});

/**
 * Stage: BM25 over the units' words (the store's: stemmed content words by default), k units per query (default 40).
 * @reads queries, store
 * @writes lists (appends, for each query whose words find anything, one list named "bm25:<query origin>" with the query's weight: labels best first with their BM25 scores; ties in label order as strings, so 10 before 9)
 */
export function bm25Stage(options: { k?: number } = {}): Stage {
  const { k } = BM25_STAGE.resolve(options);
  return named('bm25Stage', (state: RetrievalState) => {
    for (const q of state.queries) {
      const tokens = state.store.tokens(q.text);
      if (!tokens.length) continue;
      const allowed = q.only ? new Set(q.only.map(String)) : undefined;
      const hits = state.store.bm25.search(tokens, k, allowed ? (id) => allowed.has(id) : undefined);
      if (hits.length)
        state.lists.push({
          name: `bm25:${q.origin}`,
          weight: q.weight,
          labels: hits.map((h) => Number(h.id)),
          scores: hits.map((h) => h.score),
        });
    }
  });
}

export const DENSE_STAGE = declareStage({
  name: 'denseStage',
  role: 'search',
  summary: 'embedding search over the units, k per query, those below minSimilarity dropped',
  options: { k: int(40, [1, 1000], [3, 200]), minSimilarity: float(-1, [-1, 1], [0, 0.5]) },
});

/**
 * Stage: dense search (the host embeds each query), k units per query (default 40); skipped without a dense index.
 * @reads queries, store
 * @writes lists (appends, for each non-empty query that finds anything, one list named "dense:<query origin>" with the query's weight: labels best first with their cosine similarities, those below minSimilarity dropped; a k above the units held returns them all)
 */
export function denseStage(options: { k?: number; minSimilarity?: number } = {}): Stage {
  const { k, minSimilarity } = DENSE_STAGE.resolve(options);
  return named('denseStage', async (state: RetrievalState) => {
    const index = state.store.dense;
    if (!index) return;
    for (const q of state.queries) {
      if (!q.text.trim()) continue;
      try {
        const hits = (await index.searchText(q.text.slice(0, 2000), k, q.only ? { labels: q.only } : undefined)).filter(
          (h) => h.score >= minSimilarity,
        );
        if (hits.length)
          state.lists.push({
            name: `dense:${q.origin}`,
            weight: q.weight,
            labels: hits.map((h) => h.label),
            scores: hits.map((h) => h.score),
          });
      } catch (err) {
        state.ctx.log('dense search failed:', String(err));
      }
    }
  });
}
