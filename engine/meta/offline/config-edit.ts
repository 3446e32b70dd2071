// Reads and edits the exported `config` object of a memo program through the TypeScript compiler API. Leaves are
// numbers, booleans and string literals; a string leaf's alternatives come from its declared union type (e.g.
// `expansion: 'rank' | 'greedy'`), found with the type checker. Spreads of other object literals in the program
// (`{ ...CODE_PROFILE, graph: { ...CODE_PROFILE.graph } }`) are inlined first, so every leaf has a literal to edit.
import { dirname, sep } from 'node:path';
import type TS from 'typescript';
import { typescript } from '../../../foundation/typescript.ts';
import type { ProgramFiles } from '../../../memo-programs/files.ts';

// Through require (foundation/typescript.ts): Node's ESM import scans TypeScript's 9 MB for its exports first.
const ts = typescript();

export type { ProgramFiles };

export interface ConfigLeaf {
  /** Dotted path, e.g. "graph.maxUnits". */
  path: string;
  kind: 'number' | 'boolean' | 'string';
  value: number | boolean | string;
  /** Other values a string leaf may take (its union type). */
  alternatives: string[];
  file: string;
  start: number;
  end: number;
}

const OPTIONS: TS.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  strict: true,
  noEmit: true,
  types: [],
  lib: ['lib.es2022.d.ts'],
  allowImportingTsExtensions: true,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
};

/** The compiler's own declaration files: the only files outside the program a program here may read. */
const LIB_DIR = `${dirname(ts.getDefaultLibFilePath(OPTIONS))}${sep}`;
const isLib = (f: string) => f.startsWith(LIB_DIR) && f.endsWith('.d.ts');

/**
 * TypeScript's declaration files (lib.es2022.*), parsed once per process: every call builds a program over them, and
 * parsing them again was most of a call's time (the offline agent calls this several times a step).
 */
const libFiles = new Map<string, TS.SourceFile | undefined>();

function libFile(host: TS.CompilerHost, f: string, v: TS.ScriptTarget | TS.CreateSourceFileOptions): TS.SourceFile | undefined {
  if (!isLib(f)) return undefined;
  const key = `${typeof v === 'object' ? v.languageVersion : v}\u0000${f}`;
  if (!libFiles.has(key)) libFiles.set(key, host.getSourceFile(f, v));
  return libFiles.get(key);
}

function program(files: ProgramFiles): {
  prog: TS.Program;
  checker: TS.TypeChecker;
  sf: (name: string) => TS.SourceFile | undefined;
} {
  const root = '/program/';
  const host = ts.createCompilerHost(OPTIONS, true);
  const read = (f: string) => (f.startsWith(root) ? files[f.slice(root.length)] : undefined);
  const prog = ts.createProgram({
    rootNames: Object.keys(files).map((f) => root + f),
    options: OPTIONS,
    host: {
      ...host,
      // A program's import of a file on disk (an absolute path, a package) finds nothing: only its own files are read.
      fileExists: (f) => read(f) !== undefined || (isLib(f) && host.fileExists(f)),
      readFile: (f) => read(f) ?? (isLib(f) ? host.readFile(f) : undefined),
      // The program's folder exists for module resolution (Bundler asks before it looks for ./types.ts in it).
      directoryExists: (d) => `${d}/`.startsWith(root) || LIB_DIR.startsWith(`${d}${sep}`),
      realpath: (f) => f,
      getSourceFile: (f, v) => {
        const text = read(f);
        return text !== undefined ? ts.createSourceFile(f, text, v, true) : libFile(host, f, v);
      },
    },
  });
  return { prog, checker: prog.getTypeChecker(), sf: (name) => prog.getSourceFile(root + name) };
}

/** The `export const config = { ... }` object literal and the file it is in. */
function findConfig(
  files: ProgramFiles,
  sf: (name: string) => TS.SourceFile | undefined,
): { file: string; literal: TS.ObjectLiteralExpression } | undefined {
  for (const file of Object.keys(files).sort((a, b) =>
    a === 'config.ts' ? -1 : b === 'config.ts' ? 1 : a.localeCompare(b),
  )) {
    const source = sf(file);
    if (!source) continue;
    for (const st of source.statements) {
      if (!ts.isVariableStatement(st) || !st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      for (const d of st.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.name.text === 'config' && d.initializer) {
          const init = unwrap(d.initializer);
          if (ts.isObjectLiteralExpression(init)) return { file, literal: init };
        }
      }
    }
  }
  return undefined;
}

function unwrap(e: TS.Expression): TS.Expression {
  while (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e)) e = e.expression;
  return e;
}

/** The object literal an expression like `NAME` or `NAME.graph` refers to, inside the program's files. */
function resolveLiteral(
  e: TS.Expression,
  files: ProgramFiles,
  sf: (name: string) => TS.SourceFile | undefined,
): TS.ObjectLiteralExpression | undefined {
  e = unwrap(e);
  if (ts.isObjectLiteralExpression(e)) return e;
  if (ts.isIdentifier(e)) {
    for (const file of Object.keys(files)) {
      const source = sf(file);
      for (const st of source?.statements ?? []) {
        if (!ts.isVariableStatement(st)) continue;
        for (const d of st.declarationList.declarations) {
          if (ts.isIdentifier(d.name) && d.name.text === e.text && d.initializer)
            return resolveLiteral(d.initializer, files, sf);
        }
      }
    }
    return undefined;
  }
  if (ts.isPropertyAccessExpression(e)) {
    const obj = resolveLiteral(e.expression, files, sf);
    const prop = obj?.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === e.name.text) as
      TS.PropertyAssignment | undefined;
    return prop ? resolveLiteral(prop.initializer, files, sf) : undefined;
  }
  return undefined;
}

/** Source text of an object literal with every spread of a known literal written out (later keys win). */
function flatten(
  literal: TS.ObjectLiteralExpression,
  files: ProgramFiles,
  sf: (name: string) => TS.SourceFile | undefined,
): string | undefined {
  const entries = new Map<string, string>();
  for (const p of literal.properties) {
    if (ts.isSpreadAssignment(p)) {
      const inner = resolveLiteral(p.expression, files, sf);
      if (!inner) return undefined;
      const text = flatten(inner, files, sf);
      if (text === undefined) return undefined;
      const innerLiteral = ts.createSourceFile('x.ts', `const x = ${text};`, ts.ScriptTarget.ES2022, true)
        .statements[0] as TS.VariableStatement;
      const obj = (innerLiteral.declarationList.declarations[0]?.initializer as TS.ObjectLiteralExpression).properties;
      for (const q of obj) if (ts.isPropertyAssignment(q)) entries.set(q.name.getText(), q.initializer.getText());
    } else if (ts.isPropertyAssignment(p)) {
      const value = unwrap(p.initializer);
      if (ts.isObjectLiteralExpression(value)) {
        const text = flatten(value, files, sf);
        if (text === undefined) return undefined;
        entries.set(p.name.getText(), text);
      } else {
        entries.set(p.name.getText(), p.initializer.getText());
      }
    } else if (ts.isShorthandPropertyAssignment(p)) {
      entries.set(p.name.text, p.name.text);
    } else {
      return undefined;
    }
  }
  return `{ ${[...entries].map(([k, v]) => `${k}: ${v}`).join(', ')} }`;
}

/** Writes spreads in the config literal out, so every leaf is a literal. Returns the files unchanged if none. */
export function materializeConfig(files: ProgramFiles): ProgramFiles {
  const { sf } = program(files);
  const found = findConfig(files, sf);
  if (!found) return files;
  const hasSpread = (o: TS.ObjectLiteralExpression): boolean =>
    o.properties.some(
      (p) =>
        ts.isSpreadAssignment(p) ||
        (ts.isPropertyAssignment(p) &&
          ts.isObjectLiteralExpression(unwrap(p.initializer)) &&
          hasSpread(unwrap(p.initializer) as TS.ObjectLiteralExpression)),
    );
  if (!hasSpread(found.literal)) return files;
  const text = flatten(found.literal, files, sf);
  if (text === undefined) return files;
  const src = files[found.file] as string;
  // The printer reads literal text from the file a node was parsed from, so print with that file.
  const parsed = ts.createSourceFile('x.ts', `const x = ${text};`, ts.ScriptTarget.ES2022, true);
  const expr = (parsed.statements[0] as TS.VariableStatement).declarationList.declarations[0]
    ?.initializer as TS.Expression;
  const pretty = ts.createPrinter().printNode(ts.EmitHint.Expression, expr, parsed);
  return {
    ...files,
    [found.file]: src.slice(0, found.literal.getStart()) + pretty + src.slice(found.literal.getEnd()),
  };
}

/** Every editable leaf of the exported config (after materializing spreads). */
export function configLeaves(files: ProgramFiles): ConfigLeaf[] {
  const { sf, checker } = program(files);
  const found = findConfig(files, sf);
  if (!found) return [];
  const out: ConfigLeaf[] = [];
  const visit = (o: TS.ObjectLiteralExpression, prefix: string) => {
    for (const p of o.properties) {
      if (!ts.isPropertyAssignment(p)) continue;
      const path = prefix + p.name.getText();
      const v = unwrap(p.initializer);
      const base = { path, file: found.file, start: v.getStart(), end: v.getEnd(), alternatives: [] as string[] };
      if (ts.isObjectLiteralExpression(v)) visit(v, `${path}.`);
      else if (ts.isNumericLiteral(v)) out.push({ ...base, kind: 'number', value: Number(v.text) });
      else if (
        ts.isPrefixUnaryExpression(v) &&
        v.operator === ts.SyntaxKind.MinusToken &&
        ts.isNumericLiteral(v.operand)
      )
        out.push({ ...base, kind: 'number', value: -Number(v.operand.text) });
      else if (v.kind === ts.SyntaxKind.TrueKeyword || v.kind === ts.SyntaxKind.FalseKeyword)
        out.push({ ...base, kind: 'boolean', value: v.kind === ts.SyntaxKind.TrueKeyword });
      else if (ts.isStringLiteral(v) || ts.isNoSubstitutionTemplateLiteral(v)) {
        const type = checker.getContextualType(v);
        const alternatives = type?.isUnion()
          ? type.types
              .filter((t) => t.isStringLiteral())
              .map((t) => (t as TS.StringLiteralType).value)
              .filter((s) => s !== v.text)
          : [];
        out.push({ ...base, kind: 'string', value: v.text, alternatives });
      }
    }
  };
  visit(found.literal, '');
  return out;
}

/** Applies new values to leaves (by path); leaves not named keep their text. */
export function editConfig(files: ProgramFiles, values: Record<string, number | boolean | string>): ProgramFiles {
  const leaves = configLeaves(files).filter((l) => l.path in values);
  const byFile = new Map<string, ConfigLeaf[]>();
  for (const l of leaves) byFile.set(l.file, [...(byFile.get(l.file) ?? []), l]);
  const out = { ...files };
  for (const [file, list] of byFile) {
    let src = out[file] as string;
    for (const l of list.sort((a, b) => b.start - a.start)) {
      const v = values[l.path] as number | boolean | string;
      const text = typeof v === 'string' ? JSON.stringify(v).replace(/"/g, "'") : String(v);
      src = src.slice(0, l.start) + text + src.slice(l.end);
    }
    out[file] = src;
  }
  return out;
}
