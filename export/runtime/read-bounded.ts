// Reading a file someone else may have written (a memory folder handed to createMemory): never through a symbolic
// link, never what is not a regular file, never more than a cap stated up front, and JSON no deeper than a bound,
// so a tampered file is an error naming it rather than an exhausted heap, a blocked read or a stack overflow.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { z } from 'zod';

export const MiB = 1024 * 1024;

const size = (bytes: number) => (bytes >= MiB ? `${(bytes / MiB).toFixed(1)} MiB` : `${bytes} bytes`);

/** The bytes of `file`, refused when it is a link, not a regular file, or larger than `cap`. */
export function readFileBounded(file: string, cap: number): Buffer {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`${file}: ${code === 'ENOENT' ? 'missing' : code === 'ELOOP' ? 'is a symbolic link; refused' : `cannot be read (${code ?? (err as Error).message})`}`, { cause: err });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${file}: not a regular file`);
    if (stat.size > cap) throw new Error(`${file}: ${size(stat.size)}, over the cap of ${size(cap)}`);
    const buf = Buffer.alloc(stat.size);
    let at = 0;
    while (at < buf.length) {
      const got = readSync(fd, buf, at, buf.length - at, at);
      if (got === 0) break;
      at += got;
    }
    return buf.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/** Whether a parsed JSON value nests deeper than `max` arrays and objects (walked without recursion). */
export function nestsDeeper(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** Parses JSON text of `what` in `where` (a file, a file's line), bounded in depth, then by `schema`. */
export function parseJson<T>(text: string, schema: z.ZodType<T>, where: string, what: string, maxDepth: number): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where}: ${what} is not JSON (${(err as Error).message.slice(0, 200)})`, { cause: err });
  }
  if (nestsDeeper(raw, maxDepth)) throw new Error(`${where}: ${what} nests deeper than ${maxDepth} levels`);
  const r = schema.safeParse(raw);
  if (!r.success) throw new Error(`${where}: not ${what}: ${z.prettifyError(r.error).slice(0, 2000)}`);
  return r.data;
}

/** A JSON file of at most `cap` bytes, validated by `schema`. */
export function readJsonBounded<T>(file: string, cap: number, schema: z.ZodType<T>, what: string, maxDepth = 64): T {
  return parseJson(readFileBounded(file, cap).toString('utf8'), schema, file, what, maxDepth);
}
