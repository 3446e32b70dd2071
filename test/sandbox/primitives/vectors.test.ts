import { describe, expect, it } from 'vitest';
import { DEFAULT_QUOTAS } from '../../../sandbox/primitives/quotas.ts';
import { VectorStore } from '../../../sandbox/primitives/vectors.ts';

const unitVec = (angle: number) => [Math.cos(angle), Math.sin(angle)];

describe('VectorStore', () => {
  it('finds nearest neighbours with cosine scores', () => {
    const vs = new VectorStore(DEFAULT_QUOTAS);
    const { handle } = vs.create(2, 'cosine', 16);
    vs.add(handle, [0, 0.1, 0.2, 1.5].map((a, label) => ({ label, vector: unitVec(a) })));
    const hits = vs.search(handle, unitVec(0.05), 2);
    expect(hits.map((h) => h.label)).toEqual([0, 1]);
    expect(hits[0]?.score).toBeCloseTo(Math.cos(0.05), 5);
    expect(hits[0]?.distance).toBeCloseTo(1 - Math.cos(0.05), 5);
  });

  it('reopens an index by handle (what restore() does) and names a handle it does not hold', () => {
    const vs = new VectorStore(DEFAULT_QUOTAS);
    const { handle } = vs.create(2, 'l2', 4);
    expect(vs.open(handle)).toEqual({ handle, dim: 2, space: 'l2' });
    expect(() => vs.open(handle + 7)).toThrow(`no vector index with handle ${handle + 7}`);
  });

  it('applies tag and label filters inside the search, so rare matches are not starved', () => {
    const vs = new VectorStore(DEFAULT_QUOTAS);
    const { handle } = vs.create(2, 'cosine', 8);
    const items = Array.from({ length: 2000 }, (_, label) => ({
      label,
      vector: unitVec((label % 360) / 57.3),
      tags: label % 400 === 399 ? ['rare'] : ['common'],
    }));
    vs.add(handle, items);
    // A post-filter over a global top-k would find none of these five near the query.
    const rare = vs.search(handle, unitVec(0), 5, { anyTags: ['rare'] });
    expect(rare.map((h) => h.label).sort((a, b) => a - b)).toEqual([399, 799, 1199, 1599, 1999]);
    const listed = vs.search(handle, unitVec(0), 10, { labels: [5, 6, 1500] });
    expect(listed.map((h) => h.label).sort((a, b) => a - b)).toEqual([5, 6, 1500]);
  });

  it('grows past its initial capacity and supports remove and re-add', () => {
    const vs = new VectorStore(DEFAULT_QUOTAS);
    const { handle } = vs.create(2, 'cosine', 16);
    vs.add(handle, Array.from({ length: 100 }, (_, label) => ({ label, vector: unitVec(label / 100) })));
    expect(vs.size(handle)).toBe(100);
    vs.remove(handle, 0);
    expect(vs.size(handle)).toBe(99);
    expect(vs.search(handle, unitVec(0), 1)[0]?.label).toBe(1);
    vs.add(handle, [{ label: 0, vector: unitVec(0) }]);
    expect(vs.search(handle, unitVec(0), 1)[0]?.label).toBe(0);
    expect(vs.search(handle, unitVec(0), 500)).toHaveLength(100);
  });

  it('enforces its quotas with messages that name them', () => {
    const vs = new VectorStore({ ...DEFAULT_QUOTAS, vectorHandles: 2, vectorBytes: 1_000_000 });
    expect(() => vs.create(5000, 'cosine', 16)).toThrow(/quota vectorDimMax exceeded: dimension 5000/);
    vs.create(4, 'l2', 16);
    const { handle } = vs.create(4, 'ip', 16);
    expect(() => vs.create(4, 'cosine', 16)).toThrow(/quota vectorHandles exceeded/);
    expect(() => vs.add(handle, Array.from({ length: 20_000 }, (_, label) => ({ label, vector: [1, 0, 0, 0] })))).toThrow(
      /quota vectorBytes exceeded/,
    );
    expect(() => vs.add(handle, [{ label: 1, vector: [1, 0, 0] }])).toThrow(/3 dimensions, the index has 4/);
    expect(() => vs.add(handle, [{ label: 1, vector: [1, Infinity, 0, 0] }])).toThrow(/vector\[1\] is Infinity/);
    expect(() => vs.search(99, [1], 1)).toThrow(/no vector index with handle 99/);
  });

  it('scores l2 and inner-product spaces so that larger is closer', () => {
    const vs = new VectorStore(DEFAULT_QUOTAS);
    const l2 = vs.create(2, 'l2', 4).handle;
    vs.add(l2, [
      { label: 1, vector: [3, 4] },
      { label: 2, vector: [1, 0] },
    ]);
    const hits = vs.search(l2, [0, 0], 2);
    expect(hits.map((h) => h.label)).toEqual([2, 1]);
    expect(hits[1]?.score).toBe(-25);
  });
});

describe('query by text', () => {
  it('embeds on the host and searches, metered as embedding work', async () => {
    const { InstancePrimitives } = await import('../../../sandbox/primitives/index.ts');
    const { offlineServices } = await import('../../support/services.ts');
    const prims = new InstancePrimitives(offlineServices());
    const made = (await prims.dispatch('vectors.create', [{ dim: 512 }])) as { ok: true; value: { handle: number } };
    const h = made.value.handle;
    for (const [label, text] of ['the cat sleeps on the sofa', 'stock markets fell sharply', 'a kitten naps'].entries()) {
      expect((await prims.dispatch('vectors.addText', [h, label, text, ['t']])).ok).toBe(true);
    }
    const r = (await prims.dispatch('vectors.searchText', [h, 'sleepy cats', 2, { anyTags: ['t'] }])) as {
      ok: true;
      value: { label: number }[];
    };
    expect(r.value.map((x) => x.label).sort()).toEqual([0, 2]);
    expect(prims.usage().primitives['vectors.searchText']?.calls).toBe(1);
    const wrongDim = (await prims.dispatch('vectors.create', [{ dim: 8 }])) as { ok: true; value: { handle: number } };
    const bad = await prims.dispatch('vectors.searchText', [wrongDim.value.handle, 'x', 1, null]);
    expect(bad).toEqual({ ok: false, error: 'vectors.searchText: query: vector has 512 dimensions, the index has 8' });
  });
});

describe('search limits, as the contract states them', () => {
  // What VectorIndex.search's doc in the contract tells programs (and the meta model).
  it('returns everything it holds, nearest first, when k is above its size; fewer when a filter matches fewer; refuses k over 10,000', async () => {
    const vs = new VectorStore(DEFAULT_QUOTAS);
    const { handle } = vs.create(2, 'cosine', 8);
    vs.add(handle, [0, 0.4, 0.9].map((a, label) => ({ label, vector: unitVec(a), ...(label === 2 ? { tags: ['x'] } : {}) })));
    expect(vs.search(handle, unitVec(0), 50).map((h) => h.label)).toEqual([0, 1, 2]);
    expect(vs.search(handle, unitVec(0), 50, { labels: [1, 2] }).map((h) => h.label)).toEqual([1, 2]);
    expect(vs.search(handle, unitVec(0), 50, { anyTags: ['x'] }).map((h) => h.label)).toEqual([2]);
    const { InstancePrimitives } = await import('../../../sandbox/primitives/index.ts');
    const { offlineServices } = await import('../../support/services.ts');
    const prims = new InstancePrimitives(offlineServices());
    const made = (await prims.dispatch('vectors.create', [{ dim: 2 }])) as { ok: true; value: { handle: number } };
    const refused = await prims.dispatch('vectors.search', [made.value.handle, unitVec(0), 10_001, null]);
    expect(refused.ok).toBe(false);
    expect(await prims.dispatch('vectors.search', [made.value.handle, unitVec(0), 10_000, null])).toEqual({ ok: true, value: [] });
  });
});
