// What --env names: a registered environment ("locomo", "visual:charts,mazes", "data:./qa.jsonl"), a module on disk
// ("./my-env.ts", "/abs/env.js:hard") or an installed package ("my-bench", "@lab/bench:small"). Pure parsing; the
// registry decides what each resolves to.
export type EnvSpec =
  | { kind: 'name'; name: string; arg?: string }
  | { kind: 'path'; path: string; arg?: string }
  | { kind: 'package'; name: string; arg?: string };

/** Longer is a mistake (or an attack on whatever prints it). */
export const MAX_ENV_SPEC = 4096;

const MODULE_FILE = /\.(?:ts|mts|js|mjs)$/;
const PACKAGE = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i;

function splitArg(spec: string, at: number): { head: string; arg?: string } {
  if (at < 0) return { head: spec };
  const arg = spec.slice(at + 1);
  return { head: spec.slice(0, at), ...(arg ? { arg } : {}) };
}

export function parseEnvSpec(spec: string, isRegistered: (name: string) => boolean): EnvSpec {
  if (spec.length === 0) throw new Error('the environment is empty: give a name (see the list), a module path or data:<file>');
  if (spec.length > MAX_ENV_SPEC) throw new Error(`the environment spec is ${spec.length} characters long; at most ${MAX_ENV_SPEC}`);
  if ([...spec].some((c) => c.charCodeAt(0) < 0x20)) throw new Error('the environment spec holds control characters');
  const colon = spec.indexOf(':');
  const named = splitArg(spec, colon);
  if (isRegistered(named.head)) return { kind: 'name', name: named.head, ...(named.arg ? { arg: named.arg } : {}) };
  // The easiest slip with a benchmark written as data: naming the file alone.
  if (/\.jsonl?$/i.test(spec)) throw new Error(`"${spec.slice(0, 200)}" is a data file, not an environment: give it as data:${spec.slice(0, 200)}`);
  // A path: its options follow the file's extension ("./env.ts:hard"), so colons inside folder names are kept.
  if (/^(?:\.{1,2}[\\/]|[\\/])/.test(spec) || MODULE_FILE.test(named.head)) {
    const m = spec.match(/^(.*?\.(?:ts|mts|js|mjs))(?::(.*))?$/s);
    const path = m ? (m[1] as string) : spec;
    const arg = m?.[2];
    return { kind: 'path', path, ...(arg ? { arg } : {}) };
  }
  if (PACKAGE.test(named.head)) return { kind: 'package', name: named.head, ...(named.arg ? { arg: named.arg } : {}) };
  throw new Error(`"${spec.slice(0, 200)}" is neither a registered environment, a module path (./env.ts) nor a package name`);
}
