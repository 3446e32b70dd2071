// Entity focus: memory filed by the entity it concerns (a customer, a site, a person; the store's `entity` option)
// and a task's entity read the same way, so what was learned of one customer is found for that customer's tasks —
// only among their units (entityFilter) or ahead of others' (entityBoost).
import { ensureHits } from './fusion.ts';
import { type RetrievalState, named, restrictQueries, type Stage, sortHits } from './retrieval-state.ts';
import { declareStage, float } from './tunables.ts';

export const ENTITY_FILTER = declareStage({
  name: 'entityFilter',
  role: 'select',
  summary: "searches restricted to the units filed under the task's entity (a customer, a site, a person)",
  options: {},
  needs: 'entities',
});

/**
 * Stage: restricts every query to the units filed under the entities the task concerns (the store's `entity`
 * option: a meta field such as the customer, the names in the instruction, or the speakers); a task that concerns no
 * filed entity is left as it is.
 * @reads task, queries, store
 * @writes queries (each restricted, by `only`, to the units of the task's entities, when it has any)
 */
export function entityFilter(): Stage {
  return named('entityFilter', (state: RetrievalState) => {
    const entities = state.store.taskEntities(state.task);
    if (!entities.length) return;
    restrictQueries(state, [...new Set(entities.flatMap((e) => state.store.entities.get(e) ?? []))].sort((a, b) => a - b));
  });
}

export const ENTITY_BOOST = declareStage({
  name: 'entityBoost',
  role: 'rescore',
  summary: "hits filed under the task's entity scaled up",
  options: { weight: float(2, [0, 100], [1.2, 4]) },
  needs: 'entities',
});

/**
 * Stage: hits filed under an entity the task concerns are scaled by `weight` (default 2); a task that concerns no filed
 * entity is left as it is.
 * @reads task, lists, hits, store
 * @writes hits (rescored and resorted, only when the task concerns a filed entity), lists (fused by ensureHits first, in that case only)
 * @order hits best first: score descending, ties by label ascending
 */
export function entityBoost(options: { weight?: number } = {}): Stage {
  const { weight } = ENTITY_BOOST.resolve(options);
  return named('entityBoost', (state: RetrievalState) => {
    const entities = state.store.taskEntities(state.task);
    if (!entities.length) return;
    const mine = new Set(entities.flatMap((e) => state.store.entities.get(e) ?? []));
    state.hits = sortHits(ensureHits(state).map((h) => (mine.has(h.label) ? { ...h, score: h.score * weight } : h)));
  });
}
