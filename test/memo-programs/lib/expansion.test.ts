import { describe, expect, it } from 'vitest';
import { graphExpand, hopExpand, neighbourExpand } from '../../../memo-programs/lib/expansion.ts';
import { hitTexts, stateFor } from '../../support/pipeline-store.ts';

describe('expansion', () => {
  it('adds the steps next to the best hits, inside their episode, scored a share of the hit', async () => {
    const state = await stateFor('x');
    state.hits = [{ label: 2, score: 1, via: 'bm25:task' }];
    await neighbourExpand({ before: 1, after: 2, decay: 0.5 })(state);
    expect(state.hits.map((h) => [h.label, h.score, h.via])).toEqual([
      [2, 1, 'bm25:task'],
      [1, 0.5, 'neighbour'],
      [3, 0.5, 'neighbour'],
      [4, 0.25, 'neighbour'],
    ]);
  });

  it("never lowers a hit that was found directly, and stops at the episode's end", async () => {
    const state = await stateFor('x');
    state.hits = [
      { label: 4, score: 1, via: 'a' },
      { label: 3, score: 0.9, via: 'b' },
    ];
    await neighbourExpand({ window: 1, decay: 0.5, seeds: 1 })(state);
    expect(state.hits).toEqual([
      { label: 4, score: 1, via: 'a' },
      { label: 3, score: 0.9, via: 'b' },
    ]);
  });

  it('graph expansion reaches units that share a name with a hit, not through speakers', async () => {
    const state = await stateFor('x');
    state.hits = [{ label: 1, score: 1, via: 'a' }];
    await graphExpand({ seeds: 1, per: 3, decay: 0.5 })(state);
    expect(hitTexts(state)).toEqual(['Ben: Yes, I went hiking near Lake Tahoe with my sister Clara.', 'Ben: Clara started a pottery class in June.']);
    expect(state.hits[1]).toMatchObject({ score: 0.5, via: 'graph' });
  });

  it("a second hop reaches a unit through the hit's own words the question does not use, just below the hit", async () => {
    // "Where did Ben's sister start a class?" names neither Clara nor pottery: the hike turn names Clara, and the
    // question's words plus "clara" find the pottery turn.
    const state = await stateFor("Where did Ben's sister start a class?");
    state.hits = [{ label: 1, score: 1, via: 'a' }];
    await hopExpand({ seeds: 1, per: 1, terms: 3 })(state);
    expect(hitTexts(state)).toEqual(['Ben: Yes, I went hiking near Lake Tahoe with my sister Clara.', 'Ben: Clara started a pottery class in June.']);
    expect(state.hits[1]).toMatchObject({ score: 0.9, via: 'hop' });
  });
});
