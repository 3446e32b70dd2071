// Choices: a task that lists choices (a multiple-choice question's meta.choices) is searched for each choice's
// evidence, and what was found for each is shown. The payload stays memory — units as they were stored — and never
// names or ranks a choice itself: which choice the evidence supports is the reader's to decide.
import type { Json } from '../contract.ts';
import { ensureHits } from './fusion.ts';
import { type Hit, type RetrievalState, named, type Stage, sortHits } from './retrieval-state.ts';
import { declareStage, float, int } from './tunables.ts';

/** The task's choices (meta.choices): at most 26 texts of at most 500 characters. */
export function taskChoices(meta: { [key: string]: Json } | undefined): string[] {
  const raw = meta?.choices;
  if (!Array.isArray(raw)) return [];
  return raw
    .slice(0, 26)
    .map((c) => (typeof c === 'string' ? c : typeof c === 'number' ? String(c) : ''))
    .map((c) => c.slice(0, 500))
    .filter((c) => c.trim());
}

export const CHOICE_QUERIES = declareStage({
  name: 'choiceQueries',
  role: 'rewrite',
  summary: 'one more query per choice: the question with the choice',
  options: { weight: float(0.5, [0, 10], [0.1, 1.5]) },
  needs: 'choices',
});

/**
 * Stage: for a task with choices (meta.choices), one query per choice — the first query's text followed by the choice
 * — of weight `weight` (default 0.5), so the searches after it look for each choice's evidence.
 * @reads task, queries
 * @writes queries (appends one per choice, origin "choice:<i>", when the task has choices)
 */
export function choiceQueries(options: { weight?: number } = {}): Stage {
  const { weight } = CHOICE_QUERIES.resolve(options);
  return named('choiceQueries', (state: RetrievalState) => {
    const query = state.queries[0]?.text ?? '';
    taskChoices(state.task.meta).forEach((c, i) => state.queries.push({ text: `${query} ${c}`, weight, origin: `choice:${i}` }));
  });
}

export const CHOICE_EVIDENCE = declareStage({
  name: 'choiceEvidence',
  role: 'rescore',
  summary: "each choice's best evidence among the hits moved to the front, in rank order",
  options: { per: int(1, [1, 10], [1, 3]), depth: int(100, [1, 1000], [20, 300]) },
  needs: 'choices',
});

/**
 * Stage: for a task with choices, the best `per` hits (default 1) among the top `depth` (default 100) whose words
 * include all of a choice's words are moved to the front, keeping their rank order, so the payload shows what memory
 * holds for every choice; the hits' texts are unchanged.
 * @reads task, lists, hits, store
 * @writes hits (reordered when the task has choices: the evidence first, with scores above the best, the rest after), lists (fused by ensureHits first, in that case only)
 * @order hits best first: score descending, ties by label ascending
 */
export function choiceEvidence(options: { per?: number; depth?: number } = {}): Stage {
  const { per, depth } = CHOICE_EVIDENCE.resolve(options);
  return named('choiceEvidence', (state: RetrievalState) => {
    const choices = taskChoices(state.task.meta);
    if (!choices.length) return;
    const hits = ensureHits(state);
    const head = hits.slice(0, depth);
    const evidence = new Set<number>();
    for (const c of choices) {
      const words = state.store.tokens(c);
      if (!words.length) continue;
      let taken = 0;
      for (const h of head) {
        if (taken >= per) break;
        const have = new Set(state.store.units[h.label]?.tokens ?? []);
        if (words.every((w) => have.has(w))) {
          evidence.add(h.label);
          taken++;
        }
      }
    }
    if (!evidence.size) return;
    const top = hits[0]?.score ?? 0;
    const front: Hit[] = hits.filter((h) => evidence.has(h.label));
    state.hits = sortHits([...front.map((h, i) => ({ ...h, score: top + 1 + (front.length - i) })), ...hits.filter((h) => !evidence.has(h.label))]);
  });
}
