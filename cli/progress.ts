// Progress of the evaluations in flight, on stderr. On a terminal: one line, redrawn. Anywhere else (a pipe, a log
// file, `| tee`): at most every 30 s, a line for each program still being evaluated that moved since the last — a
// long run piped to a file was silent until its table. A program whose worlds have all ended is not named again: its
// score has a line of its own (the search's step lines), and repeating it beside the next program read as one line
// of everything ever evaluated.
import type { ProgressEvent } from '../api/index.ts';
import { clock } from './style.ts';
import { CR, forTerminal, toStderr } from './terminal.ts';

export interface ProgressOptions {
  /** Redraw one line (a terminal) or print lines. Default: whether stderr is a terminal. */
  tty?: boolean;
  write?: (text: string) => void;
  now?: () => number;
  /** Lines: at most one line of totals this often. */
  everyMs?: number;
}

type Worlds = Map<string, { done: number; total: number }>;
const sum = (ws: Worlds, k: 'done' | 'total') => [...ws.values()].reduce((n, w) => n + w[k], 0);

/** A printer fed with each program's (or node's) evaluation events. */
export function progressPrinter(o: ProgressOptions = {}): (label: string, e: ProgressEvent) => void {
  const tty = o.tty ?? process.stderr.isTTY === true;
  // A writer of the caller's own gets the text as the terminal would: printable, its carriage returns real.
  const given = o.write;
  const write = given ? (text: string) => given(forTerminal(text)) : toStderr;
  const now = o.now ?? Date.now;
  const everyMs = o.everyMs ?? 30_000;
  // Per program (several run at once on workers), per world: tasks done and total; when it started, its last task.
  const programs = new Map<string, { worlds: Worlds; started: number; moved: number }>();
  let width = 0;
  let lastLine = now();
  const totals = () => [...programs].map(([name, p]) => `${name}: ${sum(p.worlds, 'done')}/${sum(p.worlds, 'total')} tasks`).join('  ');
  const finished = (p: { worlds: Worlds }) => [...p.worlds.values()].every((w) => w.done === w.total);
  // Worlds start one after another: a total is only of the worlds started, so a line says so.
  const lines = () =>
    [...programs]
      .filter(([, p]) => p.moved > lastLine && !finished(p))
      .map(([name, p]) => `  … ${name}: ${sum(p.worlds, 'done')} tasks done (${p.worlds.size} ${p.worlds.size === 1 ? 'world' : 'worlds'} started, ${clock(now() - p.started)})\n`)
      .join('');
  return (label, e) => {
    let p = programs.get(label);
    // A world already finished starting again is the program's next evaluation: counted afresh.
    const again = e.kind === 'world-start' && p?.worlds.has(e.world) && finished(p);
    if (!p || again) programs.set(label, (p = { worlds: new Map(), started: now(), moved: 0 }));
    if (e.kind === 'world-start') p.worlds.set(e.world, { done: 0, total: e.tasks });
    if (e.kind === 'task') {
      p.worlds.set(e.world, { done: e.done, total: e.total });
      p.moved = now();
    }
    if (e.kind === 'retry') write(`${tty ? '\n' : ''}${label}: world ${e.world}: retrying after an infrastructure failure (${e.reason})\n`);
    if (tty) {
      // Every world started has ended: off the line (a world that starts later puts it back).
      if (e.kind === 'world-end' && finished(p)) programs.delete(label);
      const line = totals();
      write(`${CR}${line.padEnd(width)}`);
      width = line.length;
      if (!line) write(CR);
    } else if (e.kind === 'task' && now() - lastLine >= everyMs) {
      const text = lines();
      if (text) write(text);
      lastLine = now();
    }
  };
}
