// The append-only journal of a run (journal.jsonl). Every line is one event, written and fsync'd before the search
// moves on, so a kill at any moment loses at most the line being written. Reading tolerates exactly that: a torn
// last line is reported and dropped (and cut from the file before appending again); a bad line elsewhere means the
// file was damaged and is an error naming the line.
// Anyone can edit the file, so reading it is bounded (JOURNAL_LIMITS) and every node id and path in it is checked:
// ids are safe names and paths are safe relative paths, so no line can point a reader or writer outside the run.
import { closeSync, constants, fstatSync, fsyncSync, lstatSync, openSync, readSync, truncateSync, writeSync } from 'node:fs';
import { z } from 'zod';
import { type LineLimits, readLines, sizeText } from '../foundation/bounded-lines.ts';
import { EventSchema, type JournalEvent, type NewEvent } from '../engine/search/journal-events.ts';
import { redactCredentials } from '../foundation/redact.ts';

/** A journal line is at most 8 MB (ours are a few KB); the whole journal at most 256 MB. */
export const JOURNAL_LIMITS: LineLimits = { maxLineBytes: 8 * 2 ** 20, maxFileBytes: 256 * 2 ** 20 };

export interface JournalRead {
  events: JournalEvent[];
  /** The last line was cut off by a crash; it was dropped. */
  tornLine?: { line: number; text: string };
}

export function readJournal(path: string): JournalRead {
  const events: JournalEvent[] = [];
  let tornLine: JournalRead['tornLine'];
  const damaged = (line: number, why: string) => new Error(`${path}: line ${line} ${why}; the journal is damaged (it is only ever appended to)`);
  const read = readLines(path, JOURNAL_LIMITS, (line) => {
    // Only the last line can lack its newline: that is a write cut off by a kill, not damage.
    if ('tooLong' in line) {
      if (!line.terminated) tornLine = { line: line.number, text: `(${sizeText(line.bytes)} cut off)` };
      else throw damaged(line.number, `is ${sizeText(line.bytes)}, over the ${sizeText(JOURNAL_LIMITS.maxLineBytes)} a journal line may hold`);
      return;
    }
    if (line.text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line.text);
    } catch {
      if (!line.terminated) {
        tornLine = { line: line.number, text: line.text.slice(0, 120) };
        return;
      }
      throw damaged(line.number, 'is not JSON');
    }
    const event = EventSchema.safeParse(parsed);
    if (!event.success) throw new Error(`${path}: line ${line.number} is not a journal event: ${z.prettifyError(event.error)}`);
    events.push(event.data);
  });
  if (read.kind === 'not-a-file') throw new Error(`${path} is not a file; a run's journal.jsonl is a plain file`);
  if (read.kind === 'read' && read.cut) throw new Error(`${path} is over ${sizeText(JOURNAL_LIMITS.maxFileBytes)}, more than any run writes; refusing to read it`);
  return tornLine ? { events, tornLine } : { events };
}

/** Cuts a torn last line off the file (reading only its tail), so the next event starts on a line of its own. */
function cutTornTail(path: string): void {
  let size: number;
  try {
    const st = lstatSync(path);
    if (!st.isFile()) throw new Error(`${path} is not a file; a run's journal.jsonl is a plain file`);
    size = st.size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (size === 0) return;
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${path} is not a file`);
    const buf = Buffer.alloc(64 * 1024);
    let end = size;
    let keep = -1;
    let lastByte = true;
    while (end > 0 && keep < 0) {
      const start = Math.max(0, end - buf.length);
      const n = readSync(fd, buf, 0, end - start, start);
      if (lastByte && buf[n - 1] === 10) return;
      lastByte = false;
      const nl = buf.subarray(0, n).lastIndexOf(10);
      if (nl >= 0) keep = start + nl + 1;
      end = start;
    }
    truncateSync(path, Math.max(keep, 0));
  } finally {
    closeSync(fd);
  }
}

export class Journal {
  private fd: number;

  constructor(readonly path: string) {
    cutTornTail(path);
    // Never through a link: the journal is the run's own file.
    this.fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
  }

  /**
   * Writes the event (credentials of any address in it hidden) and returns it as a reader reads it back: the line
   * parsed as readJournal parses it, so what the search applies live is what a resume applies.
   */
  append(event: NewEvent): JournalEvent {
    const line = redactCredentials(JSON.stringify({ ...event, t: Date.now() }));
    writeSync(this.fd, `${line}\n`);
    fsyncSync(this.fd);
    return EventSchema.parse(JSON.parse(line));
  }

  close(): void {
    closeSync(this.fd);
  }
}
