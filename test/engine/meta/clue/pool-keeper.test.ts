// CluE's pool through a run: steps in flight cluster one after another from the newest pool (so a step holding an
// older copy reuses what an earlier one made), and a pool the keeper never saw (a resumed run's, from the journal)
// starts its line afresh.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { AskJson, ClueTask } from '../../../../engine/meta/clue/cluster-tasks.ts';
import { PoolKeeper } from '../../../../engine/meta/clue/pool-keeper.ts';
import { emptyPool } from '../../../../engine/meta/clue/pool.ts';

const tasks: ClueTask[] = ['a', 'b', 'c', 'd'].map((taskId, i) => ({ taskId, scenario: i % 2 ? 'x' : 'y', text: `question ${taskId}` }));

/** A model that summarises and makes one cluster, counting what it was asked. */
function model(): { ask: AskJson; asked: string[] } {
  const asked: string[] = [];
  const ask = (async <T,>(purpose: string, user: string, schema: z.ZodType<T>): Promise<T> => {
    asked.push(purpose);
    if (purpose === 'scenario-summaries') return schema.parse({ summaries: [...user.matchAll(/taskId: (\w)/g)].map((m) => ({ taskId: m[1], summary: 'recall a fact' })) });
    return schema.parse({ operations: [{ op: 'create', id: 'facts', label: 'facts', description: '' }], assign: Object.fromEntries(tasks.map((t) => [t.taskId, 'facts'])) });
  }) as AskJson;
  return { ask, asked };
}

describe('PoolKeeper', () => {
  it('clusters steps in flight one after another, the later one from the pool the earlier one made', async () => {
    const keeper = new PoolKeeper();
    const { ask, asked } = model();
    const stale = emptyPool();
    const [first, second] = await Promise.all([keeper.cluster(stale, tasks, ask), keeper.cluster(stale, tasks, ask)]);
    expect(asked).toEqual(['scenario-summaries', 'cluster-manager']);
    expect(second.base).toBe(first.pool);
    expect(second.groupOf).toEqual(first.groupOf);
    // A step given the pool the search kept (the first's) continues from it too.
    await keeper.cluster(first.pool, tasks, ask);
    expect(asked).toHaveLength(2);
  });

  it('starts afresh from a pool it never saw', async () => {
    const keeper = new PoolKeeper();
    const { ask, asked } = model();
    await keeper.cluster(emptyPool(), tasks, ask);
    // A resumed run's pool, rebuilt from its journal: made by another keeper, with clusters this one never made.
    const other = { clusters: [{ id: 'older', label: 'older', description: '' }], summaries: {}, assignment: {} };
    const resumed = await keeper.cluster(other, tasks, ask);
    expect(resumed.base).toBe(other);
    expect(asked).toEqual(['scenario-summaries', 'cluster-manager', 'scenario-summaries', 'cluster-manager']);
  });
});
