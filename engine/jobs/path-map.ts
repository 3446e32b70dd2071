// Where a worker on another machine finds what a job names by path: `--path-map FROM=TO` reads a module file or a
// data folder the search had under FROM from under TO here. Only whole path segments match ("/data" maps
// "/data/x", never "/database"). The environment's content hash leaves paths out, so a mapped environment is still
// checked: other code or data under TO is refused as before.
import { isAbsolute, normalize, sep } from 'node:path';
import type { EnvRef } from './job.ts';

export interface PathMapping {
  from: string;
  to: string;
}

/** "FROM=TO", both absolute; the message names what is wrong. */
export function parsePathMapping(text: string): PathMapping {
  const at = text.indexOf('=');
  if (at <= 0 || at === text.length - 1) throw new Error(`--path-map takes FROM=TO (two absolute folders); got "${text.slice(0, 200)}"`);
  const [from, to] = [text.slice(0, at), text.slice(at + 1)].map((p) => normalize(p).replace(/[\\/]+$/, '') || sep);
  if (!isAbsolute(from as string) || !isAbsolute(to as string)) throw new Error(`--path-map takes absolute folders; got "${text.slice(0, 200)}"`);
  return { from: from as string, to: to as string };
}

/** `path` with the first mapping whose FROM is a whole-segment prefix of it replaced by its TO; else unchanged. */
export function mapPath(path: string, mappings: PathMapping[]): string {
  for (const m of mappings) {
    if (path === m.from) return m.to;
    const prefix = m.from.endsWith(sep) ? m.from : `${m.from}${sep}`;
    if (path.startsWith(prefix)) return `${m.to}${sep}${path.slice(prefix.length)}`;
  }
  return path;
}

/** The job's environment reference as this machine finds it: module path, data folder and arguments mapped. */
export function mapEnvRef(ref: EnvRef, mappings: PathMapping[]): EnvRef {
  if (!mappings.length) return ref;
  const { source } = ref;
  // A data file is named in the option after "data:"; a module by its path.
  const arg = source.arg === undefined ? undefined : mapPath(source.arg, mappings);
  const spec = source.spec.startsWith('data:') ? `data:${mapPath(source.spec.slice(5), mappings)}` : mapPath(source.spec, mappings);
  return {
    ...ref,
    source: { ...source, spec, ...(arg !== undefined ? { arg } : {}), ...(source.path ? { path: mapPath(source.path, mappings) } : {}) },
    ...(ref.data ? { data: mapPath(ref.data, mappings) } : {}),
  };
}
