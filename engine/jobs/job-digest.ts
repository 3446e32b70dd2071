// A job's digest: sha256 over everything the job says (its key, automemo's version, the program, the environment's
// reference and content hash, the split, the tasks and worlds, the seed, the limits), in one canonical JSON form. A
// worker puts the digest of the job it ran into its reply, and a producer compares it with the job it sent: a job
// changed on the queue, or another put under its id, is never taken for it (redis-queue.ts, job.ts parseJobOutput).
import { createHash } from 'node:crypto';

const digests = new WeakMap<object, string>();

/** The digest of a job (job.ts's Job; any object is digested the same way), computed once per object. */
export function jobDigest(job: object): string {
  let d = digests.get(job);
  if (!d) digests.set(job, (d = digestOf(job)));
  return d;
}

/** The digest of any value, as jobDigest computes it; a value with no canonical form (a cycle, too deep) has none. */
export function digestOf(value: unknown): string {
  const h = createHash('sha256');
  canonical(value, (s) => h.update(s), 0);
  return h.digest('hex');
}

const MAX_DEPTH = 64;

/** JSON with object keys sorted and undefined left out, as JSON.stringify would carry the value. */
function canonical(v: unknown, out: (s: string) => void, depth: number): void {
  if (depth > MAX_DEPTH) throw new Error('a job nested deeper than any job is');
  if (Array.isArray(v)) {
    out('[');
    v.forEach((x, i) => {
      if (i) out(',');
      canonical(x === undefined ? null : x, out, depth + 1);
    });
    out(']');
    return;
  }
  if (v !== null && typeof v === 'object') {
    out('{');
    let first = true;
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x === undefined) continue;
      out(`${first ? '' : ','}${JSON.stringify(k)}:`);
      first = false;
      canonical(x, out, depth + 1);
    }
    out('}');
    return;
  }
  out(JSON.stringify(v) ?? 'null');
}
