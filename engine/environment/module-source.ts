// A researcher's environment module: found on disk or among installed packages, imported, checked, and
// fingerprinted by the content of every local file it imports (esbuild's dependency graph, packages excluded), so a
// run records exactly which code it ran and a later resume, view or export can say when that code changed.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { buildOnLiveService } from '../../sandbox/esbuild-service.ts';
import { readSmallFile } from '../../foundation/small-file.ts';
import { checkDefinition } from './definition-check.ts';
import type { EnvironmentDefinition } from './define.ts';

/** An environment's code is source text: more than this across its files is not an environment module. */
const MAX_SOURCE_BYTES = 64 * 2 ** 20;
const MAX_SOURCE_FILES = 5000;

export interface ModuleFingerprint {
  /** sha256 (16 hex) over the module's local files, by path relative to the module's folder. */
  hash: string;
  files: number;
}

/** The module file a path or an installed package name stands for, or an error saying what was looked for. */
export function resolveModule(spec: { kind: 'path'; path: string } | { kind: 'package'; name: string }, cwd: string): string {
  if (spec.kind === 'path') {
    const path = isAbsolute(spec.path) ? spec.path : resolve(cwd, spec.path);
    if (!existsSync(path)) throw new Error(`environment module ${path} does not exist`);
    if (!statSync(path).isFile()) throw new Error(`environment module ${path} is not a file`);
    return realpathSync(path);
  }
  // Installed packages, nearest node_modules first, as Node looks for them.
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const pkgDir = join(dir, 'node_modules', spec.name);
    const pkgJson = readSmallFile(join(pkgDir, 'package.json'), 1_000_000);
    if (pkgJson !== undefined) return join(pkgDir, packageEntry(pkgJson, spec.name));
    if (dirname(dir) === dir) break;
  }
  throw new Error(`"${spec.name}" is not a registered environment, and no installed package of that name was found from ${cwd}`);
}

function packageEntry(json: string, name: string): string {
  let pkg: { exports?: unknown; module?: unknown; main?: unknown };
  try {
    pkg = JSON.parse(json);
  } catch (err) {
    throw new Error(`package ${name}: package.json is not JSON (${(err as Error).message})`, { cause: err });
  }
  const root = typeof pkg.exports === 'object' && pkg.exports !== null && '.' in pkg.exports ? (pkg.exports as Record<string, unknown>)['.'] : pkg.exports;
  const pick = (v: unknown): string | undefined => {
    if (typeof v === 'string') return v;
    if (v && typeof v === 'object') for (const k of ['import', 'node', 'default']) if (k in v) return pick((v as Record<string, unknown>)[k]);
    return undefined;
  };
  const entry = pick(root) ?? (typeof pkg.module === 'string' ? pkg.module : undefined) ?? (typeof pkg.main === 'string' ? pkg.main : undefined) ?? 'index.js';
  if (isAbsolute(entry) || entry.split(/[\\/]/).includes('..')) throw new Error(`package ${name}: its entry "${entry}" points outside the package`);
  return entry;
}

/**
 * A module that failed to import. Its message quotes the error, which may quote the file (a syntax error shows the
 * token it met); `summary` says the same without it, for a refusal that travels to another machine.
 */
export class ModuleLoadError extends Error {
  override name = 'ModuleLoadError';
  readonly summary: string;

  constructor(file: string, cause: unknown) {
    const kind = (cause as Error)?.name ?? 'Error';
    super(`environment module ${file} failed to load: ${String((cause as Error)?.message ?? cause).split('\n')[0]}`, { cause });
    this.summary = `environment module ${file} failed to load (${kind}; its message is in the log of the machine that loaded it)`;
  }
}

/** Imports the module and returns its default export as a checked definition. */
export async function importDefinition(file: string): Promise<EnvironmentDefinition> {
  let mod: Record<string, unknown>;
  try {
    // tsx's own import: a .ts module loads whatever its folder's package.json says (no "type": "module" makes
    // tsx compile it to CommonJS, which a plain import() of it refuses).
    mod = (await tsImport(pathToFileURL(file).href, import.meta.url)) as Record<string, unknown>;
  } catch (err) {
    throw new ModuleLoadError(file, err);
  }
  const exported = defaultExport(mod);
  if (exported === undefined) throw new Error(`environment module ${file} has no default export: end it with export default defineEnvironment({ name, summary, load })`);
  return checkDefinition(exported, `environment module ${file}`);
}

/** The default export, also when the module was compiled to CommonJS (then it sits at exports.default). */
function defaultExport(mod: Record<string, unknown>): unknown {
  const d = mod.default as { __esModule?: unknown; default?: unknown } | undefined;
  if (d && typeof d === 'object' && d.__esModule === true) return 'default' in d ? d.default : undefined;
  return d;
}

/** The module's fingerprint: its own file and every local file it imports, packages excluded. */
export async function fingerprintModule(file: string): Promise<ModuleFingerprint> {
  const result = await buildOnLiveService({
    entryPoints: [file],
    bundle: true,
    write: false,
    metafile: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
  });
  const root = dirname(file);
  const inputs = Object.keys(result.metafile.inputs)
    .map((p) => resolve(p))
    .filter((p) => !p.split(/[\\/]/).includes('node_modules'))
    .sort();
  if (inputs.length > MAX_SOURCE_FILES) throw new Error(`environment module ${file} imports ${inputs.length} local files; at most ${MAX_SOURCE_FILES}`);
  const h = createHash('sha256');
  let bytes = 0;
  for (const p of inputs) {
    const text = readFileSync(p);
    bytes += text.length;
    if (bytes > MAX_SOURCE_BYTES) throw new Error(`environment module ${file}: its local files hold over ${MAX_SOURCE_BYTES / 2 ** 20} MiB of source`);
    h.update(relative(root, p)).update('\u0000').update(text).update('\u0000');
  }
  return { hash: h.digest('hex').slice(0, 16), files: inputs.length };
}
