import { expect, test } from 'vitest';
import { workerNodeFlags } from '../../api/worker-count.ts';

test('worker processes tier up late and collect garbage alone only when they leave no core spare for helper threads', () => {
  expect(workerNodeFlags(1, 2)).toEqual([]);
  expect(workerNodeFlags(3, 8)).toEqual([]);
  expect(workerNodeFlags(2, 2)).toEqual(['--interrupt-budget=1000000', '--single-threaded-gc']);
  expect(workerNodeFlags(9, 8)).toEqual(['--interrupt-budget=1000000', '--single-threaded-gc']);
});
