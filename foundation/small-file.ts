// Reads a file that is small by design (run.json, a lock, meta.json) without trusting it to be: never through a
// symbolic link, never from a pipe or a folder, and never more than the cap, so a tampered folder can neither
// block the reader nor make it hold a giant file. readRegularFile is the same for source and data files, which
// may be links.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** The file's text, or undefined when there is none; an error naming the file when it is a link, not a file, or too big. */
export function readSmallFile(path: string, maxBytes: number): string | undefined {
  return readSmallBytes(path, maxBytes)?.toString('utf8');
}

/** The file's bytes, under the same rules as readSmallFile. */
export function readSmallBytes(path: string, maxBytes: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new Error(`${path} is a symbolic link; expected a plain file`, { cause: err });
    throw err;
  }
  return readOpened(fd, path, maxBytes, 'larger than automemo writes it');
}

/**
 * A source or data file's bytes, a link followed (a module's or a dataset's files may be links), under the other
 * rules: only a plain file (a pipe, a device such as /dev/zero, a folder is refused by name, never read: a crafted
 * folder must not block or exhaust the reader), at most `maxBytes`. A missing file is an error.
 */
export function readRegularFile(path: string, maxBytes: number): Buffer {
  // Non-blocking: opening a pipe would wait for a writer.
  return readOpened(openSync(path, constants.O_RDONLY | constants.O_NONBLOCK), path, maxBytes, 'more than automemo reads of such a file');
}

function readOpened(fd: number, path: string, maxBytes: number, tooBig: string): Buffer {
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`${path} is not a plain file`);
    if (st.size > maxBytes) throw new Error(`${path} is over ${maxBytes} bytes, ${tooBig}`);
    // Room for what the file holds now, and one byte to notice it growing past the cap.
    const buf = Buffer.alloc(st.size + 1);
    let n = 0;
    for (let r = 1; r > 0 && n < buf.length; n += r) r = readSync(fd, buf, n, buf.length - n, null);
    if (n > st.size) throw new Error(`${path} grew while it was read; try again`);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}
