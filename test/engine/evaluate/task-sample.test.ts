// A seeded sample of a split's tasks: at least the minimum (all when there are fewer), otherwise the share asked; the
// same for the same seed in any order.
import { describe, expect, it } from 'vitest';
import { evalSample } from '../../../engine/evaluate/task-sample.ts';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `task-${i}`);
const picked = (list: string[], f: ((id: string) => boolean) | undefined) => (f ? list.filter(f) : list);

describe('an evaluation\'s sample', () => {
  it('takes the share asked, but never fewer than the minimum, and all when there are fewer', () => {
    expect(picked(ids(200), evalSample(ids(200), 7, 0.5, 30))).toHaveLength(100);
    expect(picked(ids(49), evalSample(ids(49), 7, 0.5, 30))).toHaveLength(30);
    expect(evalSample(ids(18), 7, 0.5, 30)).toBeUndefined();
    expect(picked(ids(49), evalSample(ids(49), 7, 0.2, 0))).toHaveLength(10);
  });

  it('is the same sample for the same seed in any order, and another for another seed', () => {
    const a = picked(ids(100), evalSample(ids(100), 3, 0.3, 30));
    const b = picked(ids(100), evalSample([...ids(100)].reverse(), 3, 0.3, 30));
    expect(b).toEqual(a);
    expect(picked(ids(100), evalSample(ids(100), 4, 0.3, 30))).not.toEqual(a);
  });
});
