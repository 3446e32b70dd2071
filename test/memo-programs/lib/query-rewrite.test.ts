import { describe, expect, it } from 'vitest';
import { entityQueries, feedbackTerms, prfQuery } from '../../../memo-programs/lib/query-rewrite.ts';
import { stateFor } from '../../support/pipeline-store.ts';

describe('query rewriting', () => {
  it('pseudo-relevance feedback adds the words that stand out in the first results', async () => {
    const state = await stateFor('What animal did Ben see?');
    await prfQuery({ docs: 1, terms: 3, weight: 0.4 })(state);
    expect(state.queries).toHaveLength(2);
    expect(state.queries[1]).toMatchObject({ origin: 'prf', weight: 0.4 });
    expect(state.queries[1]!.text.startsWith('What animal did Ben see? ')).toBe(true);
    const terms = feedbackTerms(state.store, [3], 'bear', 10);
    expect(terms).not.toContain('bear');
    expect(terms).toContain('trail');
  });

  it('per-entity sub-queries search each named person among their own units', async () => {
    const state = await stateFor('What did Anna and Clara do in spring?');
    await entityQueries()(state);
    const sub = state.queries.filter((q) => q.origin.startsWith('entity:'));
    expect(sub.map((q) => q.origin)).toEqual(['entity:anna', 'entity:clara']);
    expect(sub[0]!.text).not.toMatch(/clara/i);
    expect(sub[1]!.only!.map((l) => state.store.units[l]!.text).every((t) => t.includes('Clara'))).toBe(true);
  });

  it('a task naming one person gets no sub-queries', async () => {
    const state = await stateFor('What did Anna adopt?');
    await entityQueries()(state);
    expect(state.queries).toHaveLength(1);
  });
});
