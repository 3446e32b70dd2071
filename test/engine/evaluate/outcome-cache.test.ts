// The outcome cache keeps what an agent did for a payload, within a byte bound: past it, the oldest outcomes go.
import { expect, it } from 'vitest';
import { OutcomeCache } from '../../../engine/evaluate/outcome-cache.ts';

const outcome = (note: string) => ({ reward: 1, success: true, note, metrics: {}, trajectory: { steps: [] } });

it('keeps outcomes until its bound, then drops the oldest first', () => {
  const cache = new OutcomeCache(300);
  cache.set('a', outcome('x'.repeat(40)));
  cache.set('b', outcome('y'.repeat(40)));
  expect(cache.get('a')?.note).toHaveLength(40);
  cache.set('c', outcome('z'.repeat(40)));
  expect(cache.size).toBe(2);
  expect(cache.get('a')).toBeUndefined();
  expect(cache.get('b')?.note).toBe('y'.repeat(40));
  expect(cache.get('c')?.note).toBe('z'.repeat(40));
  // One outcome over the whole bound is never kept, and evicts nothing.
  cache.set('huge', outcome('w'.repeat(1000)));
  expect(cache.get('huge')).toBeUndefined();
  expect(cache.size).toBe(2);
  expect([cache.hits, cache.misses]).toEqual([3, 2]);
});
