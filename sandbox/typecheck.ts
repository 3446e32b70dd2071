// Type-checks a memo program against the contract with the TypeScript compiler API. One long-lived checker
// keeps parsed lib, contract and helper files between checks, so a warm check takes tens of milliseconds.
// The checker can throw internally (a stale cache, an exhausted stack): it then drops its caches and checks again
// from scratch. If a fresh checker still throws on this program but checks a known-good one, the program is what
// breaks it (a diagnostic the repair prompt can act on); if it cannot check even that, the checker is broken —
// ToolchainError, infrastructure, never the program's fault.
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type ts from 'typescript';
import { typescript } from '../foundation/typescript.ts';
import { classifyImport } from './allowed-imports.ts';
import { displayPath, resolveEntry } from './compile.ts';
import { isInside, repoRoot } from '../foundation/paths.ts';
import { ToolchainError } from './toolchain-error.ts';

export interface TypeDiagnostic {
  file: string;
  line: number;
  column: number;
  code: number;
  message: string;
}

let options: ts.CompilerOptions | undefined;

/** The checker's options, made once TypeScript is loaded (foundation/typescript.ts: on first use). */
function checkerOptions(): ts.CompilerOptions {
  const ts = typescript();
  return (options ??= {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    allowImportingTsExtensions: true,
    esModuleInterop: true,
    noFallthroughCasesInSwitch: true,
  });
}

const CHECK_FILE = '__automemo_interface_check__.ts';

export function formatDiagnostic(d: TypeDiagnostic, entryFile?: string): string {
  const where = d.file === entryFile ? `${d.line}:${d.column}` : `${d.file}:${d.line}:${d.column}`;
  return `${where} ${d.message}`;
}

export class ProgramTypeChecker {
  private readonly cache = new Map<string, { mtimeMs: number; sf: ts.SourceFile }>();
  private oldProgram: ts.Program | undefined;
  private parsed = 0;

  /** How many files this checker has read and parsed from disk (a warm check parses none again). */
  get parsedFromDisk(): number {
    return this.parsed;
  }

  private cachedSourceFile(fileName: string, version: ts.ScriptTarget): ts.SourceFile | undefined {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(fileName).mtimeMs;
    } catch {
      return undefined;
    }
    const hit = this.cache.get(fileName);
    if (hit && hit.mtimeMs === mtimeMs) return hit.sf;
    const sf = typescript().createSourceFile(fileName, readFileSync(fileName, 'utf8'), version, true);
    this.parsed++;
    this.cache.set(fileName, { mtimeMs, sf });
    return sf;
  }

  /** Forgets every parsed file and the previous program: the next check starts from scratch. */
  reset(): void {
    this.cache.clear();
    this.oldProgram = undefined;
  }

  /** Checks the program at entryPath (with `code` as its entry source when given). */
  check(entryPath: string, code?: string): { diagnostics: TypeDiagnostic[]; ms: number } {
    const started = performance.now();
    const entryCode = code ?? readFileSync(resolveEntry(entryPath), 'utf8');
    let failure: unknown;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        return this.checkOnce(entryPath, entryCode, started);
      } catch (err) {
        failure = err;
        this.reset();
      }
    }
    const why = failure instanceof RangeError ? `${failure.message} (is it nested too deeply?)` : (failure as Error).message;
    try {
      this.checkOnce(PROBE_ENTRY, PROBE_CODE, performance.now());
    } catch (probeErr) {
      this.reset();
      throw new ToolchainError('typescript', `the TypeScript checker is broken: it threw on this program (${why}) and on a known-good one (${(probeErr as Error).message})`, { cause: probeErr });
    }
    const entry = resolveEntry(entryPath);
    return {
      diagnostics: [{ file: displayPath(entry, dirname(entry)), line: 1, column: 1, code: 0, message: `the TypeScript checker failed on this program: ${why}` }],
      ms: performance.now() - started,
    };
  }

  private checkOnce(entryPath: string, entryCode: string, started: number): { diagnostics: TypeDiagnostic[]; ms: number } {
    const ts = typescript();
    const entry = resolveEntry(entryPath);
    const rootDir = dirname(entry);
    const checkFile = join(rootDir, CHECK_FILE);
    const overlay = new Map<string, string>([
      [entry, entryCode],
      [
        checkFile,
        `import type { MemoProgram } from 'automemo/contract';\nimport program from './${basename(entry)}';\nconst _implementsMemoProgram: MemoProgram = program;\nvoid _implementsMemoProgram;\n`,
      ],
    ]);
    const base = ts.createCompilerHost(checkerOptions(), true);
    const host: ts.CompilerHost = {
      ...base,
      fileExists: (f) => overlay.has(f) || base.fileExists(f),
      readFile: (f) => overlay.get(f) ?? base.readFile(f),
      getSourceFile: (f, version) => {
        const text = overlay.get(f);
        if (text !== undefined) return ts.createSourceFile(f, text, version, true);
        return this.cachedSourceFile(f, typeof version === 'object' ? version.languageVersion : version);
      },
      writeFile: () => undefined,
      getCurrentDirectory: () => repoRoot,
      resolveModuleNameLiterals: (literals, containingFile, _redirect, options) =>
        literals.map((lit) => {
          const v = classifyImport(lit.text);
          if (v.kind === 'repo-file') {
            return { resolvedModule: { resolvedFileName: v.path, extension: ts.Extension.Ts, isExternalLibraryImport: false } };
          }
          const fromDir = v.kind === 'package' ? join(repoRoot, 'package.json') : containingFile;
          return ts.resolveModuleName(lit.text, fromDir, options, host);
        }),
    };
    const program = ts.createProgram({ rootNames: [entry, checkFile], options: checkerOptions(), host, oldProgram: this.oldProgram });
    this.oldProgram = program;
    const diagnostics: TypeDiagnostic[] = [];
    const exportLine = findExportDefault(entryCode);
    const own = program.getSourceFiles().filter((sf) => isInside(sf.fileName, rootDir) && !sf.fileName.includes('/node_modules/'));
    for (const sf of own) {
      for (const d of [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]) {
        const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
        if (sf.fileName === checkFile) {
          diagnostics.push({
            file: displayPath(entry, rootDir),
            ...exportLine,
            code: d.code,
            message: `the default export does not implement MemoProgram: ${message}`,
          });
          continue;
        }
        const pos = d.start !== undefined ? sf.getLineAndCharacterOfPosition(d.start) : { line: 0, character: 0 };
        diagnostics.push({
          file: displayPath(resolve(sf.fileName), rootDir),
          line: pos.line + 1,
          column: pos.character + 1,
          code: d.code,
          message,
        });
      }
    }
    for (const d of program.getGlobalDiagnostics()) {
      diagnostics.push({ file: displayPath(entry, rootDir), line: 1, column: 1, code: d.code, message: ts.flattenDiagnosticMessageText(d.messageText, '\n') });
    }
    return { diagnostics, ms: performance.now() - started };
  }
}

/** A program every working checker accepts, checked in memory only (nothing is written there). */
const PROBE_ENTRY = join(repoRoot, 'memo-programs', '__automemo_checker_probe__', 'index.ts');
const PROBE_CODE = "import { defineMemo } from 'automemo/contract';\nexport default defineMemo({ update() {}, retrieve: () => ({ text: '', images: [] }) });\n";

function findExportDefault(code: string): { line: number; column: number } {
  const lines = code.split('\n');
  const i = lines.findIndex((l) => /^\s*export\s+default\b/.test(l));
  return { line: i >= 0 ? i + 1 : 1, column: 1 };
}

let shared: ProgramTypeChecker | undefined;
/** The process-wide checker (its caches are what make checks fast). */
export function typeChecker(): ProgramTypeChecker {
  shared ??= new ProgramTypeChecker();
  return shared;
}
