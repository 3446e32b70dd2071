// Selection by episode: past episodes found as wholes by how alike their tasks are, with the episodes linked to them
// (G-Memory's task records and their graph); the searches after it look only in those episodes' units.
import { type RetrievalState, named, restrictQueries, type Stage } from './retrieval-state.ts';
import { declareStage, int } from './tunables.ts';

export const EPISODE_SEARCH = declareStage({
  name: 'episodeSearch',
  role: 'select',
  summary: 'past episodes found whole by their task, with the episodes linked to them; searches restricted to their units',
  options: { k: int(4, [1, 100], [1, 12]), hops: int(1, [0, 3], [0, 2]) },
  needs: 'episode-index',
});

/**
 * Stage: the `k` past episodes whose task is most like this one (the store's episode index, a dense search by the first
 * query), each followed by the episodes linked to it up to `hops` links away; every query is then restricted to their
 * units. Without an episode index it does nothing.
 * @reads queries, store
 * @writes episodes (the chosen source indexes, in order: each found episode, then its links in the order they were made), queries (each restricted, by `only`, to the chosen episodes' units)
 */
export function episodeSearch(options: { k?: number; hops?: number } = {}): Stage {
  const { k, hops } = EPISODE_SEARCH.resolve(options);
  return named('episodeSearch', async (state: RetrievalState) => {
    const index = state.store.episodes;
    const query = state.queries[0]?.text ?? '';
    if (!index || !query.trim()) return;
    let found: { label: number }[];
    try {
      found = await index.searchText(query.slice(0, 2000), k);
    } catch (err) {
      state.ctx.log('episode search failed:', String(err));
      return;
    }
    const chosen = new Set<number>();
    const visit = (source: number, left: number) => {
      chosen.add(source);
      if (left <= 0) return;
      for (const l of state.store.sources[source]?.links ?? []) {
        if (!chosen.has(l)) {
          chosen.add(l);
          if (left > 1) visit(l, left - 1);
        }
      }
    };
    for (const h of found) if (state.store.sources[h.label]) visit(h.label, hops);
    state.episodes = [...chosen];
    restrictQueries(state, state.episodes.flatMap((s) => state.store.sources[s]?.labels ?? []));
  });
}
