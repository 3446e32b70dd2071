import { expect, test } from 'vitest';
import type { ProgressEvent } from '../../../engine/evaluate/evaluate.ts';
import { throttleTasks } from '../../../engine/jobs/progress-throttle.ts';

const task = (done: number, total = 10): ProgressEvent => ({ kind: 'task', world: 'w', taskId: `t${done}`, reward: 1, done, total });

test('a worker sends world events and a task event per interval, and always the last task of a world', () => {
  const sent: ProgressEvent[] = [];
  let clock = 1000;
  const send = throttleTasks((e) => sent.push(e), 100, () => clock);
  send({ kind: 'world-start', world: 'w', episodes: 2, tasks: 10 });
  for (let done = 1; done <= 10; done++) {
    send(task(done));
    clock += 30;
  }
  send({ kind: 'world-end', world: 'w', score: 0.5 });
  // Tasks 1, 5 and 9 open a new 100 ms interval (30 ms apart); task 10 is the world's last.
  expect(sent.map((e) => (e.kind === 'task' ? e.done : e.kind))).toEqual(['world-start', 1, 5, 9, 10, 'world-end']);
});
