// Query rewriting: more queries for the search stages that follow. Pseudo-relevance feedback adds the words that
// stand out in the first results; per-entity sub-queries search each named entity's units on their own, so a
// question about two people finds both people's turns.
import { ensureHits } from './fusion.ts';
import { type RetrievalState, named, type Stage } from './retrieval-state.ts';
import { declareStage, float, int } from './tunables.ts';
import type { UnitStore } from './unit-store.ts';

export const PRF_QUERY = declareStage({
  name: 'prfQuery',
  role: 'rewrite',
  summary: 'pseudo-relevance feedback: the query plus the top words of the best units, as one more query',
  options: { docs: int(5, [1, 50], [1, 20]), terms: int(6, [1, 50], [1, 20]), weight: float(0.5, [0, 10], [0.1, 1]) },
});
export const ENTITY_QUERIES = declareStage({
  name: 'entityQueries',
  role: 'rewrite',
  summary: 'per-name sub-queries searched among that name\'s units',
  options: { weight: float(0.6, [0, 10], [0.1, 1.5]), minNames: int(2, [1, 10], [1, 3]) },
  needs: 'dialogue',
});

/** The `terms` stemmed words most frequent (weighted by idf) in the given units and absent from the query. */
export function feedbackTerms(store: UnitStore, labels: number[], query: string, terms: number): string[] {
  const asked = new Set(store.tokens(query));
  const weight = new Map<string, number>();
  for (const label of labels) {
    for (const t of new Set(store.units[label]?.tokens ?? [])) {
      if (asked.has(t) || t.length < 3) continue;
      weight.set(t, (weight.get(t) ?? 0) + store.bm25.idf(t));
    }
  }
  return [...weight].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, terms).map(([t]) => t);
}

/**
 * Stage: pseudo-relevance feedback — the task query plus the top `terms` words of the best `docs` units found so far
 * (by BM25 when nothing was found yet), as one more query of weight `weight`.
 * @reads queries, lists, hits, store
 * @writes queries (appends one of origin "prf", weight default 0.5, when feedback words are found), hits, lists (fused by ensureHits first when lists are pending)
 */
export function prfQuery(options: { docs?: number; terms?: number; weight?: number } = {}): Stage {
  const { docs, terms, weight } = PRF_QUERY.resolve(options);
  return named('prfQuery', (state: RetrievalState) => {
    const query = state.queries[0]?.text ?? '';
    const found = ensureHits(state).length ? state.hits.slice(0, docs).map((h) => h.label) : state.store.bm25.search(state.store.tokens(query), docs).map((h) => Number(h.id));
    const extra = feedbackTerms(state.store, found, query, terms);
    if (extra.length) state.queries.push({ text: `${query} ${extra.join(' ')}`, weight, origin: 'prf' });
  });
}

/**
 * Stage: per-entity sub-queries — for each name the task mentions that the memory knows (speakers, capitalised
 * words), the query without the other names, searched only among that name's units. With `minNames` (default 2)
 * or more names, or "both" and two known speakers.
 * @reads queries, store
 * @writes queries (appends, per known name, at most 6, one of origin "entity:<name>", weight default 0.6, `only` = the labels of that name's units)
 */
export function entityQueries(options: { weight?: number; minNames?: number } = {}): Stage {
  const { weight, minNames } = ENTITY_QUERIES.resolve(options);
  return named('entityQueries', (state: RetrievalState) => {
    const query = state.queries[0]?.text ?? '';
    let names = state.store.knownNames(query);
    if (names.length < minNames && /\bboth\b/i.test(query)) names = [...new Set([...names, ...[...state.store.speakers].filter((s) => !s.includes(' '))])];
    if (names.length < minNames) return;
    for (const name of names.slice(0, 6)) {
      const others = names.filter((n) => n !== name);
      const text = others.reduce((q, n) => q.replace(new RegExp(`\\b${n}('s)?\\b`, 'gi'), ' '), query);
      const only = state.store.names.get(name) ?? [];
      if (only.length) state.queries.push({ text, weight, only, origin: `entity:${name}` });
    }
  });
}
