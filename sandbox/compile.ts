// Bundles a memo program with esbuild into one IIFE script for the isolate. Imports outside the allow-list
// are errors naming the import; a source map lets runtime errors point back at the program's TypeScript lines.
import { createHash } from 'node:crypto';
import { readRegularFile } from '../foundation/small-file.ts';
import { dirname, relative, resolve } from 'node:path';
import type * as esbuild from 'esbuild';
import { allowListText, classifyImport } from './allowed-imports.ts';
import { buildOnLiveService } from './esbuild-service.ts';
import { isInside, libDir, nodeModulesDir, repoRoot } from '../foundation/paths.ts';
import { type ModuleReference, scanModuleReferences } from './scan-imports.ts';
import { ToolchainError } from './toolchain-error.ts';

export interface ProgramSource {
  /** Path of the entry file (a folder means its index.ts). */
  entryPath: string;
  /** Source of the entry file when it is not (yet) on disk, e.g. written by the meta agent. */
  code?: string;
}

export interface CompiledProgram {
  entryPath: string;
  /** Folder the program may import relative files from. */
  rootDir: string;
  /** The IIFE script; it defines the global `__memoModule`. */
  code: string;
  /** Source map (JSON) of `code`. */
  map: string;
  /** sha256 of `code`: same hash, same behaviour. */
  hash: string;
  /** Program files bundled (repo helpers and packages excluded), relative to rootDir. */
  files: string[];
  ms: number;
}

export interface CompileIssue {
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

export type CompileResult = { ok: true; program: CompiledProgram } | { ok: false; issues: CompileIssue[]; ms: number };

/** Filename the isolate gives the bundle; stack frames name it and the source map translates them. */
export const BUNDLE_FILENAME = 'memo-program.js';

/**
 * sha256 of a bundle. esbuild marks each module with a comment naming its path; those depend on where the program
 * sits, its behaviour does not, so they are left out of the hash.
 */
export function bundleHash(code: string): string {
  return createHash('sha256').update(code.replace(/^\s*\/\/ \S+\.(?:ts|mts|js|mjs)$/gm, '')).digest('hex');
}

/** Checks every module reference of one program file against the allow-list. */
export function checkImports(file: string, code: string, rootDir: string): CompileIssue[] {
  const issues: CompileIssue[] = [];
  const where = { file: displayPath(file, rootDir) };
  let refs: ModuleReference[];
  try {
    refs = scanModuleReferences(file, code);
  } catch (err) {
    // The parser recurses per nesting level: a program nested thousands deep exhausts its stack. That is the
    // program's shape, not a broken tool (the same parser reads every other program).
    const why = err instanceof RangeError ? 'it is nested too deeply for the parser' : (err as Error).message;
    return [{ ...where, message: `the program could not be parsed: ${why}` }];
  }
  for (const ref of refs) {
    const pos = { ...where, line: ref.line, column: ref.column };
    if (ref.kind === 'import-meta') {
      issues.push({ ...pos, message: 'import.meta is not available in a memo program' });
      continue;
    }
    if (ref.specifier === undefined) {
      const what = ref.kind === 'dynamic-import' ? 'dynamic import()' : 'require()';
      issues.push({ ...pos, message: `${what} with a computed specifier is not allowed in a memo program` });
      continue;
    }
    if (ref.kind === 'dynamic-import' || ref.kind === 'require') {
      const what = ref.kind === 'dynamic-import' ? 'dynamic import()' : 'require()';
      issues.push({ ...pos, message: `${what} of "${ref.specifier}" is not allowed; use a static import. Allowed: ${allowListText()}.` });
      continue;
    }
    const verdict = classifyImport(ref.specifier);
    if (verdict.kind === 'denied') {
      issues.push({ ...pos, message: `Import "${ref.specifier}" is not allowed: ${verdict.reason}. Allowed: ${allowListText()}.` });
    } else if (verdict.kind === 'relative') {
      const target = resolve(dirname(file), ref.specifier);
      if (!isInside(target, rootDir)) {
        issues.push({ ...pos, message: `Import "${ref.specifier}" leaves the program's folder. Allowed: ${allowListText()}.` });
      }
    }
  }
  return issues;
}

/** A program's source file is at most this (a run folder's program is read only as a plain file, within it). */
const MAX_SOURCE_FILE_BYTES = 8 * 2 ** 20;

class ImportViolation extends Error {
  constructor(readonly issues: CompileIssue[]) {
    super(issues.map((i) => i.message).join('; '));
  }
}

function allowListPlugin(rootDir: string, entryPath: string): esbuild.Plugin {
  const isProgramFile = (p: string) => isInside(p, rootDir) && !isInside(p, nodeModulesDir) && !isInside(p, libDir);
  // A file of an allowed package: wherever npm put it (our node_modules in a checkout; hoisted beside automemo
  // when automemo is installed as a package), never a file of the program's own folder.
  const isPackageFile = (p: string) => /[\\/]node_modules[\\/]/.test(p) && !isProgramFile(p);
  return {
    name: 'automemo-allow-list',
    setup(build) {
      // Every program file is scanned before it is bundled, so unused or type-only imports are checked too.
      build.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, (args) => {
        if (!isProgramFile(args.path) || args.path === entryPath) return undefined;
        const code = readRegularFile(args.path, MAX_SOURCE_FILE_BYTES).toString('utf8');
        const issues = checkImports(args.path, code, rootDir);
        if (issues.length) throw new ImportViolation(issues);
        return { contents: code, loader: args.path.endsWith('js') ? 'js' : 'ts' };
      });
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || args.pluginData?.fromAllowList) return undefined;
        // Packages and our own helpers resolve their internal imports normally.
        if (isPackageFile(args.importer) || isInside(args.importer, libDir)) return undefined;
        const verdict = classifyImport(args.path);
        if (verdict.kind === 'repo-file') return { path: verdict.path };
        if (verdict.kind === 'denied') {
          return { errors: [{ text: `Import "${args.path}" is not allowed: ${verdict.reason}. Allowed: ${allowListText()}.` }] };
        }
        const r = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: verdict.kind === 'package' ? repoRoot : args.resolveDir,
          pluginData: { fromAllowList: true },
        });
        if (r.errors.length) return { errors: r.errors };
        if (verdict.kind === 'relative' && !isInside(r.path, rootDir)) {
          return { errors: [{ text: `Import "${args.path}" leaves the program's folder. Allowed: ${allowListText()}.` }] };
        }
        return { path: r.path };
      });
    },
  };
}

function toIssue(m: esbuild.Message, rootDir: string): CompileIssue {
  const issue: CompileIssue = { message: m.text };
  if (m.location) {
    issue.file = displayPath(m.location.file, rootDir);
    issue.line = m.location.line;
    issue.column = m.location.column + 1;
  }
  return issue;
}

export function displayPath(file: string, rootDir: string): string {
  const abs = resolve(repoRoot, file);
  return isInside(abs, rootDir) ? relative(rootDir, abs) || abs : relative(repoRoot, abs);
}

export function formatIssue(issue: CompileIssue): string {
  const where = issue.file ? `${issue.file}${issue.line ? `:${issue.line}:${issue.column ?? 1}` : ''}: ` : '';
  return `${where}${issue.message}`;
}

export function resolveEntry(entryPath: string): string {
  const abs = resolve(entryPath);
  if (abs.endsWith('.ts') || abs.endsWith('.js') || abs.endsWith('.mts')) return abs;
  return resolve(abs, 'index.ts');
}

export interface CompileOptions {
  /** How long a build may wait on esbuild before its service is taken for dead and restarted. */
  timeoutMs?: number;
}

/**
 * Compiles a program. Problems of the program come back as issues; a compiler that stays dead through its restarts
 * throws ToolchainError (infrastructure: not the program's fault).
 */
export async function compileProgram(source: ProgramSource, options: CompileOptions = {}): Promise<CompileResult> {
  const started = performance.now();
  const entryPath = resolveEntry(source.entryPath);
  const rootDir = dirname(entryPath);
  let code = source.code;
  if (code === undefined) {
    try {
      code = readRegularFile(entryPath, MAX_SOURCE_FILE_BYTES).toString('utf8');
    } catch (err) {
      return {
        ok: false,
        issues: [{ message: `cannot read program ${entryPath}: ${(err as Error).message}` }],
        ms: performance.now() - started,
      };
    }
  }
  const entryIssues = checkImports(entryPath, code, rootDir);
  if (entryIssues.length) return { ok: false, issues: entryIssues, ms: performance.now() - started };
  try {
    const result = await buildOnLiveService({
      stdin: { contents: code, sourcefile: entryPath, resolveDir: rootDir, loader: 'ts' },
      bundle: true,
      write: false,
      platform: 'neutral',
      format: 'iife',
      globalName: '__memoModule',
      target: 'es2022',
      mainFields: ['module', 'main'],
      conditions: ['import', 'default'],
      sourcemap: 'external',
      sourcesContent: false,
      outfile: resolve(rootDir, BUNDLE_FILENAME),
      logLevel: 'silent',
      metafile: true,
      legalComments: 'none',
      plugins: [allowListPlugin(rootDir, entryPath)],
    }, options.timeoutMs);
    const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
    const map = result.outputFiles.find((f) => f.path.endsWith('.map'));
    if (!js || !map) throw new Error('esbuild produced no output');
    const files = Object.keys(result.metafile.inputs)
      .map((f) => resolve(rootDir, f === '<stdin>' ? entryPath : resolve(repoRoot, f)))
      .filter((f) => f === entryPath || (isInside(f, rootDir) && !isInside(f, nodeModulesDir)))
      .map((f) => relative(rootDir, f));
    return {
      ok: true,
      program: {
        entryPath,
        rootDir,
        code: js.text,
        map: map.text,
        hash: bundleHash(js.text),
        files: [...new Set(files)].sort(),
        ms: performance.now() - started,
      },
    };
  } catch (err) {
    if (err instanceof ToolchainError) throw err;
    if (err instanceof ImportViolation) return { ok: false, issues: err.issues, ms: performance.now() - started };
    const failure = err as esbuild.BuildFailure;
    const plugin = failure.errors?.find((m) => (m.detail as unknown) instanceof ImportViolation);
    if (plugin) return { ok: false, issues: (plugin.detail as ImportViolation).issues, ms: performance.now() - started };
    const issues = failure.errors?.length ? failure.errors.map((m) => toIssue(m, rootDir)) : [{ message: String(err) }];
    return { ok: false, issues, ms: performance.now() - started };
  }
}
