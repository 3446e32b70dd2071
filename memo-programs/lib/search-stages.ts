// Search stages: each query of the state (the task, and any rewrites) searched in one index, giving a ranked list
// per query for fusion.
import { type RetrievalState, named, type Stage } from './retrieval-state.ts';
import { stemmedTokens } from './stem.ts';

/**
 * Stage: BM25 over the units' stemmed content words, k units per query (default 40).
 * @reads queries, store
 * @writes lists (appends, for each query whose stemmed words find anything, one list named "bm25:<query origin>" with the query's weight: labels best first with their BM25 scores; ties in label order as strings, so 10 before 9)
 */
export function bm25Stage(options: { k?: number } = {}): Stage {
  const k = Math.max(1, Math.min(options.k ?? 40, 1000));
  return named('bm25Stage', (state: RetrievalState) => {
    for (const q of state.queries) {
      const tokens = stemmedTokens(q.text);
      if (!tokens.length) continue;
      const allowed = q.only ? new Set(q.only.map(String)) : undefined;
      const hits = state.store.bm25.search(tokens, k, allowed ? (id) => allowed.has(id) : undefined);
      if (hits.length) state.lists.push({ name: `bm25:${q.origin}`, weight: q.weight, labels: hits.map((h) => Number(h.id)), scores: hits.map((h) => h.score) });
    }
  });
}

/**
 * Stage: dense search (the host embeds each query), k units per query (default 40); skipped without a dense index.
 * @reads queries, store
 * @writes lists (appends, for each non-empty query that finds anything, one list named "dense:<query origin>" with the query's weight: labels best first with their cosine similarities, those below minSimilarity dropped; a k above the units held returns them all)
 */
export function denseStage(options: { k?: number; minSimilarity?: number } = {}): Stage {
  const k = Math.max(1, Math.min(options.k ?? 40, 1000));
  return named('denseStage', async (state: RetrievalState) => {
    const index = state.store.dense;
    if (!index) return;
    for (const q of state.queries) {
      if (!q.text.trim()) continue;
      try {
        const hits = (await index.searchText(q.text.slice(0, 2000), k, q.only ? { labels: q.only } : undefined)).filter((h) => h.score >= (options.minSimilarity ?? -1));
        if (hits.length) state.lists.push({ name: `dense:${q.origin}`, weight: q.weight, labels: hits.map((h) => h.label), scores: hits.map((h) => h.score) });
      } catch (err) {
        state.ctx.log('dense search failed:', String(err));
      }
    }
  });
}
