import { describe, expect, it } from 'vitest';
import { bm25Stage, denseStage } from '../../../memo-programs/lib/search-stages.ts';
import { stateFor } from '../../support/pipeline-store.ts';

describe('search stages', () => {
  it("BM25 finds a step by another form of its words, one list per query, within a sub-query's units", async () => {
    const state = await stateFor('Who went hikes near the lake?');
    state.queries.push({ text: 'pottery class', weight: 0.5, origin: 'extra', only: [7] });
    await bm25Stage({ k: 3 })(state);
    expect(state.lists.map((l) => [l.name, l.weight])).toEqual([
      ['bm25:task', 1],
      ['bm25:extra', 0.5],
    ]);
    expect(state.store.units[state.lists[0]!.labels[0]!]!.text).toContain('hiking near Lake Tahoe');
    expect(state.lists[0]!.labels.length).toBeLessThanOrEqual(3);
    expect(state.lists[1]!.labels).toEqual([7]);
  });

  it('a query of stopwords only finds nothing, and dense search is skipped without a dense index', async () => {
    const state = await stateFor('what is it?');
    await bm25Stage()(state);
    await denseStage()(state);
    expect(state.lists).toEqual([]);
  });
});
