// Terminal progress for commands that evaluate programs: one line on stderr, redrawn, when it is a terminal.
import type { ProgressEvent } from '../engine/evaluate/evaluate.ts';

/** A one-line progress display on stderr when it is a terminal. */
export function progressPrinter(): (label: string, e: ProgressEvent) => void {
  if (!process.stderr.isTTY) return () => undefined;
  const worlds = new Map<string, { done: number; total: number }>();
  let current = '';
  return (label, e) => {
    if (label !== current) {
      worlds.clear();
      current = label;
    }
    if (e.kind === 'world-start') worlds.set(e.world, { done: 0, total: e.tasks });
    if (e.kind === 'task') worlds.set(e.world, { done: e.done, total: e.total });
    if (e.kind === 'retry')
      process.stderr.write(`\n${label}: world ${e.world}: retrying after an infrastructure failure (${e.reason})\n`);
    const done = [...worlds.values()].reduce((n, w) => n + w.done, 0);
    const total = [...worlds.values()].reduce((n, w) => n + w.total, 0);
    process.stderr.write(`\r${label}: ${done}/${total} tasks`.padEnd(60));
    if (e.kind === 'world-end' && [...worlds.values()].every((w) => w.done === w.total))
      process.stderr.write('\r'.padEnd(61) + '\r');
  };
}
