// A worker's progress on its way to the search: world events as they come, task events at most every `everyMs` (a
// world's last task always), so a fast evaluation does not spend its worker and the search on a message
// per task that nobody can read (cli/progress.ts shows counts, which the next event carries).
import type { ProgressEvent } from '../evaluate/evaluate.ts';

export function throttleTasks(send: (event: ProgressEvent) => void, everyMs: number, now: () => number = Date.now): (event: ProgressEvent) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (event) => {
    if (event.kind === 'task' && event.done < event.total) {
      const t = now();
      if (t - last < everyMs) return;
      last = t;
    }
    send(event);
  };
}
