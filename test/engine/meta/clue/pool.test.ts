// CluE's pool: the manager's operations applied, and its limits held whatever the model replied.
import { describe, expect, it } from 'vitest';
import {
  applyOperations,
  clusterId,
  emptyPool,
  MAX_CLUSTERS,
  type ClusterPool,
} from '../../../../engine/meta/clue/pool.ts';

const tasks = (n: number, prefix = 't') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const sizes = (pool: ClusterPool, ids: string[]) => {
  const n: Record<string, number> = {};
  for (const id of ids) n[pool.assignment[id] as string] = (n[pool.assignment[id] as string] ?? 0) + 1;
  return n;
};

describe('cluster pool', () => {
  it('creates clusters and assigns tasks as the manager says, keeping the summaries', () => {
    const ids = tasks(4);
    const summaries = {
      t0: 'date of a past event',
      t1: 'date of an earlier trip',
      t2: 'hobby a person likes',
      t3: 'hobby of a friend',
    };
    const { pool, notes } = applyOperations(
      emptyPool(),
      [
        { op: 'create', id: 'When', label: 'when did it happen', description: 'dates' },
        { op: 'create', id: 'hobbies', label: 'likes and hobbies', description: 'preferences' },
      ],
      { t0: 'when', t1: 'when', t2: 'hobbies', t3: 'hobbies' },
      ids,
      summaries,
    );
    expect(notes).toEqual([]);
    expect(pool.clusters.map((c) => c.id)).toEqual(['when', 'hobbies']);
    expect(pool.assignment).toEqual({ t0: 'when', t1: 'when', t2: 'hobbies', t3: 'hobbies' });
    expect(pool.summaries).toEqual(summaries);
  });

  it('persists across steps: merges and relabels follow earlier assignments, a split re-places its tasks', () => {
    const first = applyOperations(
      emptyPool(),
      [
        { op: 'create', id: 'a', label: 'dates', description: '' },
        { op: 'create', id: 'b', label: 'times', description: '' },
        { op: 'create', id: 'c', label: 'places', description: '' },
      ],
      { t0: 'a', t1: 'a', t2: 'b', t3: 'b', t4: 'c', t5: 'c' },
      tasks(6),
      { t0: 'when date', t1: 'when date', t2: 'what time', t3: 'what time', t4: 'where city', t5: 'where town' },
    ).pool;
    // Step 2: the manager merges a and b and relabels c, assigning nothing: earlier assignments follow the merge.
    const second = applyOperations(
      first,
      [
        { op: 'merge', clusters: ['a', 'b'], into: 'a', label: 'when' },
        { op: 'relabel', cluster: 'c', label: 'where' },
      ],
      {},
      tasks(6),
      {},
    );
    expect(second.pool.clusters.map((c) => [c.id, c.label])).toEqual([
      ['a', 'when'],
      ['c', 'where'],
    ]);
    expect(sizes(second.pool, tasks(6))).toEqual({ a: 4, c: 2 });
    // Step 3: a is split; its tasks are assigned to the parts.
    const third = applyOperations(
      second.pool,
      [
        {
          op: 'split',
          cluster: 'a',
          into: [
            { id: 'day', label: 'day', description: '' },
            { id: 'hour', label: 'hour', description: '' },
          ],
        },
      ],
      { t0: 'day', t1: 'day', t2: 'hour', t3: 'hour' },
      tasks(6),
      {},
    );
    expect(sizes(third.pool, tasks(6))).toEqual({ day: 2, hour: 2, c: 2 });
  });

  it('holds at most 7 clusters and at least 2 tasks in each, whatever the reply', () => {
    const ids = tasks(20);
    const ops = ids.map((id) => ({ op: 'create' as const, id: `c-${id}`, label: id, description: '' }));
    const assign = Object.fromEntries(ids.map((id) => [id, `c-${id}`]));
    const summaries = Object.fromEntries(ids.map((id, i) => [id, i % 2 ? 'recall a date' : 'recall a place']));
    const { pool, notes } = applyOperations(emptyPool(), ops, assign, ids, summaries);
    const n = Object.values(sizes(pool, ids));
    expect(n.length).toBeLessThanOrEqual(MAX_CLUSTERS);
    expect(Math.min(...n)).toBeGreaterThanOrEqual(2);
    expect(n.reduce((a, b) => a + b, 0)).toBe(20);
    expect(pool.clusters.length).toBeLessThanOrEqual(MAX_CLUSTERS);
    expect(notes.some((x) => x.includes('folded into the nearest cluster'))).toBe(true);
  });

  it('places tasks the reply left out or sent to a cluster that does not exist, by their summaries', () => {
    const { pool, notes } = applyOperations(
      emptyPool(),
      [
        { op: 'create', id: 'dates', label: 'dates', description: '' },
        { op: 'create', id: 'places', label: 'places', description: '' },
      ],
      { t0: 'dates', t1: 'dates', t2: 'places', t3: 'places', t4: 'nowhere' },
      tasks(6),
      {
        t0: 'when was the wedding date',
        t1: 'wedding date month',
        t2: 'city she moved to',
        t3: 'city of the concert',
        t4: 'which city was the trip',
        t5: 'date of the wedding party',
      },
    );
    expect(pool.assignment.t4).toBe('places');
    expect(pool.assignment.t5).toBe('dates');
    expect(notes).toContain("2 task(s) placed by their summaries' words");
  });

  it('turns whatever the model wrote as an id into a short safe name', () => {
    expect(clusterId('../../etc/passwd')).toBe('etc-passwd');
    expect(clusterId('<script>')).toBe('script');
    expect(clusterId('Temporal Reasoning!')).toBe('temporal-reasoning');
    expect(clusterId('x'.repeat(500))).toHaveLength(40);
    expect(clusterId('***')).toBe('cluster');
    const { pool } = applyOperations(
      emptyPool(),
      [
        { op: 'create', id: 'a', label: 'L'.repeat(10_000), description: 'd'.repeat(10_000) },
        { op: 'create', id: 'a', label: 'again', description: '' },
      ],
      { t0: 'a', t1: 'a', t2: 'a-2', t3: 'a-2' },
      tasks(4),
      {},
    );
    expect(pool.clusters.map((c) => c.id)).toEqual(['a', 'a-2']);
    expect(pool.clusters[0]?.label.length).toBe(80);
    expect(pool.clusters[0]?.description.length).toBe(400);
  });
});
