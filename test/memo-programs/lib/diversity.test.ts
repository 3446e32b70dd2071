import { describe, expect, it } from 'vitest';
import { capPerSource, capSources, dedupe, mmrOrder } from '../../../memo-programs/lib/diversity.ts';
import { smallStore, stateFor } from '../../support/pipeline-store.ts';

describe('diversity', () => {
  it('MMR moves a near-duplicate of a picked unit behind a different one', async () => {
    const { store, ctx } = await smallStore();
    const extra = {
      taskId: 'S3',
      env: 'test',
      instruction: 'c',
      initial: {},
      steps: [{ index: 0, action: 'Ben: We saw a black bear crossing the trail at dawn again.' }],
      outcome: { reward: 1, success: true },
      meta: {},
    };
    await store.add(extra, ctx);
    const hits = [
      { label: 3, score: 1, via: 'a' },
      { label: 9, score: 0.95, via: 'a' },
      { label: 6, score: 0.9, via: 'a' },
    ];
    expect(mmrOrder(hits, store, 3, 0.5).map((h) => h.label)).toEqual([3, 6, 9]);
    expect(mmrOrder(hits, store, 3, 1).map((h) => h.label)).toEqual([3, 9, 6]);
  });

  it("a per-source cap lets another source's hits pass the ones beyond it", async () => {
    const { store } = await smallStore();
    const hits = [0, 1, 2, 5].map((label, i) => ({ label, score: 1 - i * 0.01, via: 'a' }));
    expect(capSources(hits, store, 2, 0.5).map((h) => h.label)).toEqual([0, 1, 5, 2]);
    const state = await stateFor('x');
    state.hits = hits;
    await capPerSource({ max: 10 })(state);
    expect(state.hits.map((h) => h.label)).toEqual([0, 1, 2, 5]);
  });

  it('dedupe drops a hit that says what a better-ranked hit said, and keeps the rest in order', async () => {
    const state = await stateFor('x');
    const extra = {
      taskId: 'S3',
      env: 'test',
      instruction: 'c',
      initial: {},
      steps: [
        { index: 0, action: 'Ben: We saw a black bear crossing the trail at dawn yet again.' },
        { index: 1, action: 'Anna: We saw a black bear crossing the trail at dawn.' },
      ],
      outcome: { reward: 1, success: true },
      meta: {},
    };
    await state.store.add(extra, state.ctx);
    const hits = [3, 6, 9, 10, 1].map((label, i) => ({ label, score: 1 - i * 0.1, via: 'a' }));
    state.hits = hits.map((h) => ({ ...h }));
    // Label 10 is label 3's words said by someone else: an exact repeat; label 9 adds a word ("again").
    await dedupe({ similarity: 1 })(state);
    expect(state.hits.map((h) => h.label)).toEqual([3, 6, 9, 1]);
    state.hits = hits.map((h) => ({ ...h }));
    await dedupe({ similarity: 0.8 })(state);
    expect(state.hits.map((h) => h.label)).toEqual([3, 6, 1]);
  });
});
