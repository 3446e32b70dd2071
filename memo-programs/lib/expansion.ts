// Expansion: units next to the best hits join the candidates, scored a share of their hit's score. Neighbours in
// the same episode (the reply after a question, the result after an action); graph neighbours share a name with
// the hit.
import { ensureHits } from './fusion.ts';
import { type Hit, type RetrievalState, named, type Stage, sortHits } from './retrieval-state.ts';

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
  const window = Math.max(0, Math.min(options.window ?? 1, 10));
  const o = { seeds: Math.max(1, Math.min(options.seeds ?? 10, 200)), before: Math.min(options.before ?? window, 10), after: Math.min(options.after ?? window, 10), decay: options.decay ?? 0.7 };
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
  const seeds = Math.max(1, Math.min(options.seeds ?? 5, 100));
  const per = Math.max(1, Math.min(options.per ?? 3, 20));
  const decay = options.decay ?? 0.5;
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
