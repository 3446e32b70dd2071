// Node module hooks for a researcher's environment module, registered by module-source.ts once per folder of
// modules (`root`); they run on Node's hooks thread, so this file is plain JavaScript. They touch only files inside
// `root` that are not under a node_modules folder:
// - `automemo`, `automemo/contract`, `automemo/lib` and `automemo/lib/<helper>` resolve to the automemo running the
//   module, from any file that imports them (the module's, or a package's it imports), whatever copies are installed:
//   a module anywhere on disk runs with no install beside it, and one with a copy of automemo installed beside it
//   never loads that second engine into the process (two copies of isolated-vm in one process abort it natively);
// - a file written with import/export loads as an ES module whatever its package.json says: without "type":
//   "module", tsx compiles a .ts file to CommonJS, and automemo's entry, which awaits at its top level, cannot be
//   required from CommonJS;
// - a run's copy of a module (`packagesFrom` set: the copy's files were at `packagesFrom` when the run started)
//   finds the packages it imports from the original folder when none are installed where the copy lies.
import { readFileSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * One rule per folder of modules, added as modules are imported (module-source.ts sends each over the port and waits
 * for its acknowledgement). One registration holds them all: hooks registered once per folder would stack, and the
 * tsx hooks each import registers between them resolve a file before an earlier folder's rule ever sees it.
 * @type {{ root: string, automemo: Record<string, string>, sources: Record<string, string>, libDir: string, packagesFrom?: string }[]}
 */
const rules = [];

export function initialize({ port }) {
  port.on('message', (message) => {
    const { id, rule } = message;
    rules.push({ ...rule, root: rule.root.endsWith(sep) ? rule.root : rule.root + sep });
    port.postMessage({ id });
  });
  port.unref();
}

/** The path of a file: URL and the rule of the innermost root holding it (never under node_modules), else undefined. */
function ruleOf(url) {
  if (typeof url !== 'string' || !url.startsWith('file:')) return undefined;
  const path = fileURLToPath(url.replace(/[?#].*$/, ''));
  let best;
  for (const rule of rules) {
    if (!path.startsWith(rule.root) || path.slice(rule.root.length).split(/[\\/]/).includes('node_modules')) continue;
    if (!best || rule.root.length > best.rule.root.length) best = { path, rule };
  }
  return best;
}

const ESM_SYNTAX = /^[ \t]*(?:import[ \t]*[\w{*'"]|export[ \t])/m;
const SOURCE_FILE = /\.(?:ts|tsx|mts|js|jsx|mjs)$/;

/** Whether a source file of the root is written with import/export (then it loads as an ES module). */
function isEsm(path) {
  if (!SOURCE_FILE.test(path)) return false;
  try {
    return statSync(path).isFile() && ESM_SYNTAX.test(readFileSync(path, 'utf8'));
  } catch {
    return false;
  }
}

/** The file a relative specifier names, as tsx finds it: as written, .js for .ts, or with an extension or index added. */
function localFile(base) {
  const candidates = [base];
  const js = /\.(m?)js(x?)$/.exec(base);
  if (js) candidates.push(base.slice(0, -js[0].length) + `.${js[1]}ts${js[2]}`);
  if (!/\.[a-z]+$/i.test(base)) for (const ext of ['.ts', '.tsx', '.mts', '.js', '.mjs', '/index.ts', '/index.js']) candidates.push(base + ext);
  return candidates.find((p) => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  });
}

/** The running automemo's file for an `automemo…` specifier (every rule names the same one; the latest is taken). */
function ownAutomemo(specifier) {
  const rule = rules.at(-1);
  if (!rule?.libDir) return undefined;
  if (Object.hasOwn(rule.automemo, specifier)) return rule.automemo[specifier];
  const helper = /^automemo\/lib\/([\w-]+)$/.exec(specifier);
  return helper ? new URL(`${helper[1]}.ts`, rule.libDir).href : undefined;
}

/**
 * The running automemo's file for a file: URL of its own sources, as a tsconfig `paths` mapping resolves `automemo`
 * before these hooks see the specifier (tsx's hooks run first). Loaded as named, under tsx's namespace, it would be a
 * second engine in the process: ~575 more modules per open, and an InfraError or registry that is not the engine's.
 */
function ownSource(specifier) {
  const rule = rules.at(-1);
  if (!rule?.libDir || !specifier.startsWith('file:')) return undefined;
  const file = specifier.replace(/[?#].*$/, '');
  if (Object.hasOwn(rule.sources, file)) return rule.sources[file];
  return file.startsWith(rule.libDir) && file.endsWith('.ts') ? file : undefined;
}

const BARE = /^(?![./\\]|[a-z][\w+.-]*:)/i;
const RELATIVE = /^\.{1,2}\//;

/**
 * A root file written with import/export, resolved here as an ES module: the entry (a file: URL) and relative imports
 * between root files. Left to the next resolver (tsx, Node), it would be compiled to CommonJS under a package.json
 * without "type": "module", with every file it imports.
 */
function ownFile(specifier, parent) {
  let target;
  if (specifier.startsWith('file:')) target = ruleOf(specifier)?.path;
  else if (RELATIVE.test(specifier) && parent) {
    const found = localFile(fileURLToPath(new URL(specifier, pathToFileURL(parent))));
    target = found && ruleOf(pathToFileURL(found).href)?.path;
  }
  return target && isEsm(target) ? { url: pathToFileURL(target).href, format: 'module', shortCircuit: true } : undefined;
}

export async function resolve(specifier, context, next) {
  // One automemo per process: the running one, whoever asks and whatever is installed beside them.
  const from = ruleOf(context.parentURL);
  const automemo = ownAutomemo(specifier) ?? (from ? ownSource(specifier) : undefined);
  if (automemo) return { url: automemo, format: 'module', shortCircuit: true };
  const parent = from?.path;
  const own = ownFile(specifier, parent);
  if (own) return own;
  try {
    return await next(specifier, context);
  } catch (err) {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !from || !BARE.test(specifier)) throw err;
    const { rule } = from;
    if (rule.packagesFrom) {
      const original = pathToFileURL(rule.packagesFrom + sep + from.path.slice(rule.root.length)).href;
      try {
        return await next(specifier, { ...context, parentURL: original });
      } catch {
        // not there either: the first error
      }
    }
    throw err;
  }
}
