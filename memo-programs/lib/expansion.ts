// Expansion: units next to the best hits join the candidates, scored a share of their hit's score. Neighbours in
// the same episode (the reply after a question, the result after an action); graph neighbours share a name with
// the hit; a second hop is found by the hit's own rarest words that the question does not use (a question whose
// answer needs two facts names only the first: the project, not the instrument whose room it asks for).
import { ensureHits } from './fusion.ts';
import { feedbackTerms } from './query-rewrite.ts';
import { type Hit, type RetrievalState, named, type Stage, sortHits } from './retrieval-state.ts';
import { declareStage, float, int } from './tunables.ts';

export const NEIGHBOUR_EXPAND = declareStage({
  name: 'neighbourExpand',
  role: 'expand',
  summary: 'the steps next to the best hits (before and after default to window)',
  options: { window: int(1, [0, 10], [0, 4]), before: int(1, [0, 10], [0, 4]), after: int(1, [0, 10], [0, 4]), seeds: int(10, [1, 200], [1, 60]), decay: float(0.7, [0, 10], [0.1, 1]) },
});
export const GRAPH_EXPAND = declareStage({
  name: 'graphExpand',
  role: 'expand',
  summary: 'units sharing names with the best hits',
  options: { seeds: int(5, [1, 100], [1, 30]), per: int(3, [1, 20], [1, 10]), decay: float(0.5, [0, 10], [0.1, 1]) },
});
export const HOP_EXPAND = declareStage({
  name: 'hopExpand',
  role: 'expand',
  summary: "a second hop: units found by the best hits' own rarest words",
  options: { seeds: int(5, [1, 50], [1, 30]), per: int(2, [1, 20], [1, 10]), terms: int(3, [1, 20], [1, 10]), decay: float(0.9, [0, 10], [0.1, 1]) },
});

/** Raises a label's score to `score` (adding it when new), noting how it was reached. */
function raise(byLabel: Map<number, Hit>, label: number, score: number, via: string): void {
  const h = byLabel.get(label);
  if (!h) byLabel.set(label, { label, score, via });
  else if (score > h.score) {
    h.score = score;
    h.via = via;
  }
}

/** Neighbours of the top `seeds` hits, `before` and `after` steps away, scored hit × decay^distance. */
export function expandNeighbours(state: RetrievalState, options: { seeds: number; before: number; after: number; decay: number }): Hit[] {
  const hits = ensureHits(state);
  const byLabel = new Map(hits.map((h) => [h.label, { ...h }]));
  for (const seed of hits.slice(0, options.seeds)) {
    for (let d = 1; d <= Math.max(options.before, options.after); d++) {
      const share = seed.score * options.decay ** d;
      if (d <= options.after) {
        const n = state.store.neighbour(seed.label, d);
        if (n) raise(byLabel, n.label, share, 'neighbour');
      }
      if (d <= options.before) {
        const n = state.store.neighbour(seed.label, -d);
        if (n) raise(byLabel, n.label, share, 'neighbour');
      }
    }
  }
  return sortHits([...byLabel.values()]);
}

/**
 * Stage: adds the units `window` steps either side of the top `seeds` hits (or `before`/`after`), score × decay^distance.
 * @reads lists, hits, store
 * @writes hits (neighbours inside the same source episode added, or raised when already hits, to their seed's score × decay^distance; via "neighbour"), lists (fused by ensureHits first when pending)
 * @order hits best first: score descending, ties by label ascending
 */
export function neighbourExpand(options: { window?: number; before?: number; after?: number; seeds?: number; decay?: number } = {}): Stage {
  const r = NEIGHBOUR_EXPAND.resolve(options);
  // Before and after default to the window (the declaration's defaults are the window's).
  const o = { seeds: r.seeds, before: options.before === undefined ? r.window : r.before, after: options.after === undefined ? r.window : r.after, decay: r.decay };
  return named('neighbourExpand', (state) => {
    state.hits = expandNeighbours(state, o);
  });
}

/**
 * Stage: for the top `seeds` hits, up to `per` units sharing the most names with the hit, score × decay.
 * @reads lists, hits, store
 * @writes hits (units sharing a name other than a speaker's with a seed hit added or raised to the seed's score × decay; via "graph"), lists (fused by ensureHits first when pending)
 * @order hits best first: score descending, ties by label ascending
 */
export function graphExpand(options: { seeds?: number; per?: number; decay?: number } = {}): Stage {
  const { seeds, per, decay } = GRAPH_EXPAND.resolve(options);
  return named('graphExpand', (state) => {
    const hits = ensureHits(state);
    const { store } = state;
    const byLabel = new Map(hits.map((h) => [h.label, { ...h }]));
    for (const seed of hits.slice(0, seeds)) {
      const unit = store.units[seed.label];
      if (!unit) continue;
      const shared = new Map<number, number>();
      for (const name of store.knownNames(unit.text)) {
        if (store.speakers.has(name)) continue;
        const labels = store.names.get(name) ?? [];
        // A name on most units links everything to everything: it says nothing.
        if (labels.length > 50) continue;
        for (const l of labels) if (l !== seed.label) shared.set(l, (shared.get(l) ?? 0) + 1);
      }
      const best = [...shared].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, per);
      for (const [label] of best) raise(byLabel, label, seed.score * decay, 'graph');
    }
    state.hits = sortHits([...byLabel.values()]);
  });
}

/**
 * Stage: a second hop — for each of the top `seeds` hits, a lexical search by the task query plus the hit's `terms`
 * rarest words the query does not use; up to `per` units found that way join the hits at the seed's score × decay.
 * @reads queries, lists, hits, store
 * @writes hits (units found by a seed hit's own words added, or raised when already hits, to the seed's score × decay; via "hop"), lists (fused by ensureHits first when pending)
 * @order hits best first: score descending, ties by label ascending
 */
export function hopExpand(options: { seeds?: number; per?: number; terms?: number; decay?: number } = {}): Stage {
  // Fused scores sit close together (reciprocal ranks): a unit found by a hop ranks just below its seed, not far below (decay 0.9).
  const { seeds, per, terms, decay } = HOP_EXPAND.resolve(options);
  return named('hopExpand', (state) => {
    const hits = ensureHits(state);
    const query = state.queries[0]?.text ?? '';
    const asked = state.store.tokens(query);
    const byLabel = new Map(hits.map((h) => [h.label, { ...h }]));
    for (const seed of hits.slice(0, seeds)) {
      const words = feedbackTerms(state.store, [seed.label], query, terms);
      if (!words.length) continue;
      const own = String(seed.label);
      const found = state.store.bm25.search([...asked, ...words], per, (id) => id !== own);
      for (const f of found) raise(byLabel, Number(f.id), seed.score * decay, 'hop');
    }
    state.hits = sortHits([...byLabel.values()]);
  });
}
