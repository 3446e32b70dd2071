// What a worker serving a queue may open: the built-in environments, and environment modules and data under the
// folders it was started for (`automemo worker --env-root DIR`). Anyone who can reach Redis can put a job on it, and
// a job names its environment by path: without this, a job could make the worker import any file on its disk (a
// module runs as it loads) or read one as data. A job naming anything else is refused before the file is touched.
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, parse, resolve, sep } from 'node:path';
import type { EnvRef } from './job.ts';

/** An --env-root: an absolute folder that exists, as its real path; else an error naming it. */
export function parseEnvRoot(text: string): string {
  if (!isAbsolute(text)) throw new Error(`--env-root takes an absolute folder; got "${text.slice(0, 200)}"`);
  const st = statSync(text, { throwIfNoEntry: false });
  if (!st?.isDirectory()) throw new Error(`--env-root ${text.slice(0, 200)} is not a folder`);
  const real = realpathSync(text);
  // The whole disk is no allow-list: any job could make the worker import any file on it.
  if (real === parse(real).root)
    throw new Error(
      `--env-root ${text.slice(0, 200)} is the whole disk, which would let anyone who reaches Redis make this worker import any file: give the folders of your benchmarks`,
    );
  return real;
}

/**
 * Refuses a --path-map whose target is under none of the roots: every job mapped there would be refused, and the
 * mapping said the benchmarks are there. Only where the worker has roots (one behind a queue).
 */
export function checkPathMapTargets(mappings: readonly { from: string; to: string }[], roots: readonly string[]): void {
  for (const m of mappings) {
    if (!underRoots(m.to, roots)) {
      throw new Error(
        `--path-map ${m.from.slice(0, 200)}=${m.to.slice(0, 200)}: ${m.to.slice(0, 200)} is not under an --env-root (${roots.length ? roots.join(', ') : 'none given'}); this worker would refuse every job mapped there: add it with --env-root, or map to a folder under one`,
      );
    }
  }
}

/** Whether `path` (relative ones from this process's folder) is, once links are followed, inside one of `roots`. */
export function underRoots(path: string, roots: readonly string[]): boolean {
  const full = resolve(path);
  let real: string;
  try {
    real = realpathSync(full);
  } catch {
    // Not there (yet): judged by its text; opening it will say it is missing.
    real = full;
  }
  return roots.some((root) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep));
}

/**
 * Why a worker started for `roots` must not open the environment `ref` names, or undefined when it may: a module
 * outside them, or data (the option of a definition whose option is a path, or the data folder) outside them.
 */
export function rootsProblem(ref: EnvRef, roots: readonly string[], argIsPath: boolean): string | undefined {
  const refuse = (what: string, path: string) =>
    `does not open the ${what} ${path.slice(0, 500)}: it is not under a folder this worker serves (automemo worker --env-root DIR)`;
  const { source } = ref;
  if (source.kind === 'module') {
    if (!source.path) return 'does not open an environment module the job names by no path';
    if (!underRoots(source.path, roots)) return refuse('environment module', source.path);
  }
  if (argIsPath && source.arg !== undefined && !underRoots(source.arg, roots)) return refuse('data', source.arg);
  if (ref.data !== undefined && !underRoots(ref.data, roots)) return refuse('data', ref.data);
  return undefined;
}
