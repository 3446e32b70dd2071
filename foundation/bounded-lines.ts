// Reads a line-per-record file (a journal, an evidence file) without ever holding it whole: it is read in chunks, a
// line longer than the per-line cap is measured and skipped (reported, never decoded), and reading stops at the
// file cap. What is not a regular file (a folder, a pipe, a device) is reported before it is opened for reading,
// so a tampered folder can neither exhaust memory nor block the reader.
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';

export interface LineLimits {
  /** A longer line is reported as too long; its text is never decoded. */
  maxLineBytes: number;
  /** Reading stops after this many bytes. */
  maxFileBytes: number;
}

export type Line =
  | { number: number; text: string; terminated: boolean }
  | { number: number; tooLong: true; bytes: number; terminated: boolean };

export type LinesRead =
  | { kind: 'missing' }
  | { kind: 'not-a-file' }
  | {
      kind: 'read';
      /** Bytes read. */
      bytes: number;
      /** The file is longer than maxFileBytes: only its first maxFileBytes were read (a line cut there is left out). */
      cut: boolean;
    };

const CHUNK = 1 << 20;

/** A size in words: "590 MB", "8.4 MB", "12 kB", "100 bytes". */
export const sizeText = (bytes: number) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB` : bytes >= 1e3 ? `${Math.round(bytes / 1e3)} kB` : `${bytes} bytes`);

/** Calls `onLine` for every line of `path` (numbered from 1; an empty line included), within `limits`. */
export function readLines(path: string, limits: LineLimits, onLine: (line: Line) => void): LinesRead {
  try {
    if (!statSync(path).isFile()) return { kind: 'not-a-file' };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw err;
  }
  // Non-blocking: a pipe swapped in after the check above cannot hang the open.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) return { kind: 'not-a-file' };
    const buf = Buffer.alloc(CHUNK);
    let parts: Buffer[] = [];
    let lineBytes = 0;
    let number = 1;
    let total = 0;
    let cut = false;
    const emit = (terminated: boolean) => {
      if (lineBytes > limits.maxLineBytes) onLine({ number, tooLong: true, bytes: lineBytes, terminated });
      else onLine({ number, text: Buffer.concat(parts).toString('utf8'), terminated });
      parts = [];
      lineBytes = 0;
      number++;
    };
    for (;;) {
      const room = limits.maxFileBytes - total;
      if (room <= 0) {
        cut = readSync(fd, buf, 0, 1, null) > 0;
        break;
      }
      const read = readSync(fd, buf, 0, Math.min(CHUNK, room), null);
      if (read === 0) break;
      total += read;
      const chunk = buf.subarray(0, read);
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(10, start);
        const end = nl < 0 ? read : nl;
        lineBytes += end - start;
        // Past the cap the line is only counted: nothing more of it is kept.
        if (lineBytes <= limits.maxLineBytes) parts.push(Buffer.from(chunk.subarray(start, end)));
        else parts = [];
        if (nl < 0) break;
        emit(true);
        start = nl + 1;
      }
    }
    if (lineBytes > 0 && !cut) emit(false);
    return { kind: 'read', bytes: total, cut };
  } finally {
    closeSync(fd);
  }
}
