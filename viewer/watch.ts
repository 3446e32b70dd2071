// Tells the viewer when a run folder changed: fs.watch on the folder for promptness (the journal is appended to,
// the lock comes and goes), and a poll of the journal's size and time as the fallback where inotify does not reach
// (network and some container filesystems) or fs.watch fails. Bursts of writes are folded into one call.
import { type FSWatcher, statSync, watch } from 'node:fs';
import { join } from 'node:path';

export interface WatchOptions {
  pollMs?: number;
  debounceMs?: number;
}

function signature(dir: string): string {
  const stat = (name: string) => {
    try {
      const s = statSync(join(dir, name));
      return `${s.size}:${s.mtimeMs}`;
    } catch {
      return '-';
    }
  };
  return `${stat('journal.jsonl')}|${stat('lock')}`;
}

/** Calls `onChange` after the run's journal or lock changes; returns a function that stops watching. */
export function watchRun(dir: string, onChange: () => void, options: WatchOptions = {}): () => void {
  const { pollMs = 1000, debounceMs = 100 } = options;
  let last = signature(dir);
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    timer = undefined;
    const now = signature(dir);
    if (now === last) return;
    last = now;
    onChange();
  };
  const schedule = () => {
    timer ??= setTimeout(check, debounceMs);
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dir, (_event, file) => {
      if (!file || file === 'journal.jsonl' || file === 'lock') schedule();
    });
    watcher.on('error', () => {
      watcher?.close();
      watcher = undefined;
    });
  } catch {
    // Polling alone.
  }
  const poll = setInterval(schedule, pollMs);
  poll.unref();
  return () => {
    clearInterval(poll);
    if (timer) clearTimeout(timer);
    watcher?.close();
  };
}
