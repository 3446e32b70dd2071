// A researcher's environment module: found on disk or among installed packages, read by esbuild first (its local
// files, the packages it imports, its syntax errors as file:line:col), imported through tsx with automemo's module
// hooks (module-hooks.mjs: `automemo` resolves to the running automemo, whatever copy is installed beside the module,
// and import/export files load as ES modules), checked, and fingerprinted by the content of every local file it imports
// (packages excluded), so a run records exactly which code it ran and a later resume, view or export can say when
// that code changed (and take the run's copy of it: run-store/env-copy.ts).
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { createHash } from 'node:crypto';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { buildOnLiveService } from '../../sandbox/esbuild-service.ts';
import { readRegularFile, readSmallFile } from '../../foundation/small-file.ts';
import type { Plugin } from 'esbuild';
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

/** What esbuild read of a module: its local files and the packages they import. */
export interface ModuleInspection extends ModuleFingerprint {
  /** The module's local files (its own first is not promised), absolute, sorted. */
  paths: string[];
  /** The deepest folder holding every local file. */
  root: string;
  /** Packages imported, with the local file importing each (first importer only). */
  packages: { specifier: string; from: string }[];
}

/** What `automemo` means to a module with none installed beside it: the running automemo's files, as file URLs. */
export interface OwnAutomemo {
  /** automemo's folder. */
  root: string;
  version: string;
  /** Specifier → file URL: automemo, automemo/contract, automemo/lib. */
  entries: Record<string, string>;
  /** Folder URL of automemo/lib/<helper>.ts, ending in "/". */
  libDir: string;
  /**
   * File URL of an entry's source → the running entry: what a tsconfig `paths` mapping (the repository's own, or a
   * monorepo's) resolves `automemo` to before the hooks see the specifier.
   */
  sources: Record<string, string>;
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
 * A module that failed to load. Its message quotes the error, which may quote the file (a syntax error shows the
 * line it met); `summary` says the same without it, for a refusal that travels to another machine.
 */
export class ModuleLoadError extends Error {
  override name = 'ModuleLoadError';
  readonly summary: string;

  constructor(file: string, cause: unknown, detail?: string) {
    const kind = (cause as Error)?.name ?? 'Error';
    super(`environment module ${file} failed to load: ${detail ?? firstLine(cause)}`, { cause });
    this.summary = `environment module ${file} failed to load (${kind}; its message is in the log of the machine that loaded it)`;
  }
}

const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split('\n')[0];

interface EsbuildMessage {
  text: string;
  location?: { file: string; line: number; column: number; lineText: string } | null;
}

/** esbuild's errors as "file:line:col: text", the line and a caret under the column; the first three. */
function syntaxErrors(errors: EsbuildMessage[]): string {
  const shown = errors.slice(0, 3).map((e) => {
    const l = e.location;
    if (!l) return e.text;
    const line = l.lineText.length > 200 ? `${l.lineText.slice(0, 200)}…` : l.lineText;
    return `${resolve(l.file)}:${l.line}:${l.column + 1}: ${e.text}\n    ${line}\n    ${' '.repeat(Math.min(l.column, 200))}^`;
  });
  return `${errors.length === 1 ? 'a syntax error' : `${errors.length} errors`}:\n  ${shown.join('\n  ')}${errors.length > 3 ? `\n  … and ${errors.length - 3} more` : ''}`;
}

/** Where in the module's own files an error thrown while it loaded was raised ("file:line:col"), if its stack says. */
export function throwSite(err: unknown, root: string): string | undefined {
  const stack = String((err as Error)?.stack ?? '');
  for (const m of stack.matchAll(/\(?((?:file:\/\/)?\/[^\s()]+?):(\d+):(\d+)\)?$/gm)) {
    const raw = (m[1] as string).replace(/[?#][^:]*$/, '');
    const path = raw.startsWith('file:') ? fileURLToPath(raw) : raw;
    if (path.startsWith(root + sep) && !path.includes(`${sep}node_modules${sep}`)) return `${path}:${m[2]}:${m[3]}`;
  }
  return undefined;
}

/**
 * esbuild reads the module's files through this: only plain files (a pipe or a link to a device named by a crafted
 * run folder would block or exhaust the reader), within what is left of MAX_SOURCE_BYTES; what was read is kept in
 * `read` for the fingerprint.
 */
function boundedReads(read: Map<string, Buffer>, refused: { why?: string }): Plugin {
  let bytes = 0;
  return {
    name: 'automemo-bounded-reads',
    setup(build) {
      build.onLoad({ filter: /.*/, namespace: 'file' }, (args) => {
        let contents: Buffer;
        try {
          contents = readRegularFile(args.path, Math.max(0, MAX_SOURCE_BYTES - bytes));
        } catch (err) {
          refused.why ??= (err as Error).message;
          return { errors: [{ text: (err as Error).message }] };
        }
        bytes += contents.length;
        read.set(resolve(args.path), contents);
        return { contents, loader: 'default' };
      });
    },
  };
}

/** esbuild's reading of the module: its local files, the packages it imports, or its syntax errors (a ModuleLoadError). */
export async function inspectModule(file: string): Promise<ModuleInspection> {
  let result;
  const read = new Map<string, Buffer>();
  const refused: { why?: string } = {};
  try {
    result = await buildOnLiveService({
      entryPoints: [file],
      bundle: true,
      write: false,
      metafile: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      logLevel: 'silent',
      plugins: [boundedReads(read, refused)],
    });
  } catch (err) {
    if (refused.why) throw new Error(`environment module ${file} cannot be read: ${refused.why}`, { cause: err });
    const errors = (err as { errors?: EsbuildMessage[] }).errors;
    if (Array.isArray(errors) && errors.length) throw new ModuleLoadError(file, err, syntaxErrors(errors));
    throw err;
  }
  const local = (p: string) => !p.split(/[\\/]/).includes('node_modules');
  const inputs = Object.entries(result.metafile.inputs).filter(([p]) => local(p));
  if (inputs.length > MAX_SOURCE_FILES) throw new Error(`environment module ${file} imports ${inputs.length} local files; at most ${MAX_SOURCE_FILES}`);
  const paths = inputs.map(([p]) => resolve(p)).sort();
  const packages = new Map<string, string>();
  for (const [p, input] of inputs)
    for (const i of input.imports) if (i.external && !packages.has(i.path) && !i.path.startsWith('node:')) packages.set(i.path, resolve(p));
  const root = paths.reduce((common, p) => {
    while (!p.startsWith(common.endsWith(sep) ? common : common + sep)) common = dirname(common);
    return common;
  }, dirname(file));
  const h = createHash('sha256');
  let bytes = 0;
  const base = dirname(file);
  for (const p of paths) {
    const text = read.get(p) ?? readRegularFile(p, MAX_SOURCE_BYTES);
    bytes += text.length;
    if (bytes > MAX_SOURCE_BYTES) throw new Error(`environment module ${file}: its local files hold over ${MAX_SOURCE_BYTES / 2 ** 20} MiB of source`);
    h.update(relative(base, p)).update('\u0000').update(text).update('\u0000');
  }
  return { hash: h.digest('hex').slice(0, 16), files: paths.length, paths, root, packages: [...packages].map(([specifier, from]) => ({ specifier, from })) };
}

/** The module's fingerprint: its own file and every local file it imports, packages excluded. */
export async function fingerprintModule(file: string): Promise<ModuleFingerprint> {
  const { hash, files } = await inspectModule(file);
  return { hash, files };
}

/** The one registration of module-hooks.mjs in this process, and the folders whose rule it holds. */
let hooks: { port: MessagePort; sent: number; ruled: Set<string> } | undefined;

/**
 * Gives the hooks a folder's rule, registering them the first time, and waits until they hold it. One registration
 * for every folder: hooks registered per folder stack, and the tsx hooks each import adds between them resolve a
 * module before an earlier folder's rule ever sees it (a module imported again after a resume loaded as CommonJS).
 */
async function registerHooks(root: string, own: OwnAutomemo | undefined, packagesFrom: string | undefined): Promise<void> {
  const key = JSON.stringify([root, own?.root ?? null, packagesFrom ?? null]);
  if (!hooks) {
    const { port1, port2 } = new MessageChannel();
    register(new URL('./module-hooks.mjs', import.meta.url), { data: { port: port2 }, transferList: [port2] });
    port1.unref();
    hooks = { port: port1, sent: 0, ruled: new Set() };
  }
  if (hooks.ruled.has(key)) return;
  const { port } = hooks;
  const id = ++hooks.sent;
  const held = new Promise<void>((resolve) => {
    const onMessage = (m: { id?: number }) => {
      if (m?.id !== id) return;
      port.off('message', onMessage);
      port.unref();
      resolve();
    };
    port.on('message', onMessage);
  });
  // Held open while the hooks answer (a process with nothing else to wait on would exit mid-import).
  port.ref();
  port.postMessage({
    id,
    rule: {
      root,
      automemo: own?.entries ?? {},
      sources: own?.sources ?? {},
      libDir: own?.libDir ?? '',
      ...(packagesFrom ? { packagesFrom } : {}),
    },
  });
  await held;
  hooks.ruled.add(key);
}

/** The automemo a file would import, found as Node finds it from there, or undefined. */
function automemoBeside(from: string, specifier: string): { root: string; version: string } | undefined {
  let entry: string;
  try {
    entry = realpathSync(createRequire(from).resolve(specifier));
  } catch {
    return undefined;
  }
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) {
    const pkg = readSmallFile(join(dir, 'package.json'), 1_000_000);
    if (pkg === undefined) continue;
    try {
      const { name, version } = JSON.parse(pkg) as { name?: unknown; version?: unknown };
      if (name === 'automemo') return { root: dir, version: String(version) };
    } catch {
      // not a package.json we can read: keep looking up
    }
  }
  return undefined;
}

/**
 * A note when an automemo is installed beside the module that is not the one running it: the module gets the running
 * one (module-hooks.mjs), and the note names both and the command that runs the other.
 */
export function automemoNote(file: string, inspection: ModuleInspection, own: OwnAutomemo): string | undefined {
  const first = inspection.packages.find((p) => p.specifier === 'automemo' || p.specifier.startsWith('automemo/'));
  if (!first) return undefined;
  const beside = automemoBeside(first.from, first.specifier);
  if (!beside || beside.root === realpathSync(own.root)) return undefined;
  return (
    `environment module ${file} imports automemo ${beside.version} installed at ${beside.root}; it runs with the automemo running it ` +
    `(${own.version} at ${own.root}) instead: one automemo per process. To run with that copy: node ${join(beside.root, 'bin', 'automemo.js')} …`
  );
}

export interface ImportOptions {
  /** What `automemo` is when none is installed beside the module (none: the import fails). */
  own?: OwnAutomemo;
  inspection: ModuleInspection;
  /** The folder the module's files were in when a run started, when `file` is the run's copy of them. */
  packagesFrom?: string;
}

/** Imports the module and returns its default export as a checked definition. */
export async function importDefinition(file: string, o: ImportOptions): Promise<EnvironmentDefinition> {
  await registerHooks(o.inspection.root, o.own, o.packagesFrom);
  let mod: Record<string, unknown>;
  try {
    // tsx's own import, in a namespace of its own each time: a module edited since it was last imported in this
    // process (a resume, an export) is read again, with every local file it imports.
    mod = (await tsImport(pathToFileURL(file).href, { parentURL: import.meta.url, tsconfig: nearestTsconfig(file) ?? false })) as Record<string, unknown>;
  } catch (err) {
    const at = throwSite(err, o.inspection.root);
    throw new ModuleLoadError(file, err, at ? `${firstLine(err)} (at ${at})` : undefined);
  }
  const exported = defaultExport(mod);
  if (exported === undefined) throw new Error(`environment module ${file} has no default export: end it with export default defineEnvironment({ name, summary, load })`);
  return checkDefinition(exported, `environment module ${file}`);
}

/**
 * The tsconfig.json nearest above the module, which tsx compiles it by (its paths, its JSX); tsx would otherwise take
 * the one in the working folder, whatever project that is.
 */
function nearestTsconfig(file: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const candidate = join(dir, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The default export, also when the module was compiled to CommonJS (then it sits at exports.default). */
function defaultExport(mod: Record<string, unknown>): unknown {
  const d = mod.default as { __esModule?: unknown; default?: unknown } | undefined;
  if (d && typeof d === 'object' && d.__esModule === true) return 'default' in d ? d.default : undefined;
  return d;
}
