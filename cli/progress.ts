// Terminal progress for commands that evaluate programs: one line on stderr, redrawn, when it is a terminal.
import type { ProgressEvent } from '../engine/evaluate/evaluate.ts';

/** A one-line progress display on stderr when it is a terminal. */
export function progressPrinter(): (label: string, e: ProgressEvent) => void {
  if (!process.stderr.isTTY) return () => undefined;
  // Per program (several run at once on workers), per world: tasks done and total.
  const programs = new Map<string, Map<string, { done: number; total: number }>>();
  let width = 0;
  return (label, e) => {
    const worlds = programs.get(label) ?? new Map<string, { done: number; total: number }>();
    programs.set(label, worlds);
    if (e.kind === 'world-start') worlds.set(e.world, { done: 0, total: e.tasks });
    if (e.kind === 'task') worlds.set(e.world, { done: e.done, total: e.total });
    if (e.kind === 'retry')
      process.stderr.write(`\n${label}: world ${e.world}: retrying after an infrastructure failure (${e.reason})\n`);
    const sum = (ws: Map<string, { done: number; total: number }>, k: 'done' | 'total') => [...ws.values()].reduce((n, w) => n + w[k], 0);
    if (e.kind === 'world-end' && [...worlds.values()].every((w) => w.done === w.total)) programs.delete(label);
    const line = [...programs].map(([name, ws]) => `${name}: ${sum(ws, 'done')}/${sum(ws, 'total')} tasks`).join('  ');
    process.stderr.write(`\r${line.padEnd(width)}`);
    width = line.length;
    if (!line) process.stderr.write('\r');
  };
}
