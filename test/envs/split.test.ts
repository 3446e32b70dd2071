import { describe, expect, it } from 'vitest';
import { isTrain, splitReport } from '../../envs/split.ts';

describe('train/test split', () => {
  const ids = Array.from({ length: 2000 }, (_, i) => `task-${i}`);

  it('gives about the requested share to train, in every stratum', () => {
    const report = splitReport(ids, (x) => x, (x) => `s${Number(x.split('-')[1]) % 5}`, { seed: 3 });
    for (const { train, test } of Object.values(report)) {
      expect(train / (train + test)).toBeGreaterThan(0.15);
      expect(train / (train + test)).toBeLessThan(0.25);
    }
  });

  it('never moves a task when others are added, and depends on the seed', () => {
    const before = ids.filter((id) => isTrain(id, { seed: 3 }));
    const more = [...ids, ...Array.from({ length: 500 }, (_, i) => `new-${i}`)];
    const after = more.filter((id) => isTrain(id, { seed: 3 })).filter((id) => id.startsWith('task-'));
    expect(after).toEqual(before);
    expect(ids.filter((id) => isTrain(id, { seed: 4 }))).not.toEqual(before);
  });
});
