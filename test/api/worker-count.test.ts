import { expect, test } from 'vitest';
import { workerNodeFlags } from '../../api/worker-count.ts';

test('worker processes tier up late only when they leave no core spare for V8 to compile on', () => {
  expect(workerNodeFlags(1, 2)).toEqual([]);
  expect(workerNodeFlags(3, 8)).toEqual([]);
  expect(workerNodeFlags(2, 2)).toEqual(['--interrupt-budget=1000000']);
  expect(workerNodeFlags(9, 8)).toEqual(['--interrupt-budget=1000000']);
});
