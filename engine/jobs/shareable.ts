// What a worker behind a queue may send back of an error: whoever reaches Redis reads it. A message automemo wrote
// itself, from nothing but the job and its own checks, goes as it is; anything else — an error a module's own code
// threw (its import, its load(), its agent), which may quote a file under the worker's roots (a JSON.parse message
// quotes a fragment of the text it read) — goes as its kind only, its message kept in the worker's own log.
import { ContentError } from '../../foundation/usage-error.ts';
import { TimeLimitError } from '../../foundation/time-limit.ts';
import { ModuleLoadError } from '../environment/module-source.ts';
import { ToolchainError } from '../../sandbox/toolchain-error.ts';

/** The words of `err` a worker sends to whoever put the job on the queue. */
export function shareableReason(err: unknown): string {
  for (let e: unknown = err; e instanceof Error; e = e.cause) if (e instanceof ModuleLoadError) return e.summary;
  // automemo's own words: a time limit (the part and the limit), the toolchain, a dataset's problems as its reader
  // states them (ids and counts, never a line's text; a ContentError that wraps another error is not one of these).
  if (err instanceof TimeLimitError || err instanceof ToolchainError || (err instanceof ContentError && err.cause === undefined)) return err.message;
  // A ContentError that wraps another error is our wrapper: the kind that says something is the wrapped one's.
  let inner: unknown = err;
  for (let depth = 0; inner instanceof ContentError && inner.cause !== undefined && depth < 8; depth++) inner = inner.cause;
  let kind = 'an error';
  try {
    kind = inner instanceof Error ? inner.name.slice(0, 100) : typeof inner;
  } catch {
    // a name that cannot be read is still an error
  }
  return `${kind} (its message may quote the worker's files, so it stays in the worker's log)`;
}
