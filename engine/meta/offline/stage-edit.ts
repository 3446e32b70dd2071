// Reads and edits a program's retrieval pipeline through the TypeScript compiler API: the array literal
// `export const stages = [ ... ]` whose elements are stage calls (`bm25Stage({ k: 40 })`), the options of each call,
// and the `new UnitStore({ ... })` that builds its memory. Structural edits rewrite that array (insert, remove,
// replace a stage; set one option) and keep the stage names imported from automemo/lib/pipeline.
import type TS from 'typescript';
import { typescript } from '../../../foundation/typescript.ts';
import type { ProgramFiles } from '../../../memo-programs/files.ts';
import { STAGE_DECLARATIONS } from '../../../memo-programs/lib/pipeline.ts';

// Through require (foundation/typescript.ts): Node's ESM import scans TypeScript's 9 MB for its exports first.
const ts = typescript();

export const PIPELINE_MODULE = 'automemo/lib/pipeline';

/** One element of the stages array. */
export interface StageCall {
  /** The called function's name ("bm25Stage"); the element's first identifier when it is not a plain call. */
  name: string;
  /** The element's source text. */
  text: string;
  /** Options of the call's first argument when it is an object literal: key → literal source text. */
  options: Record<string, string>;
}

export interface Pipeline {
  file: string;
  stages: StageCall[];
  /** Options of `new UnitStore({ ... })`, key → literal source text (empty without one). */
  store: Record<string, string>;
}

function parse(file: string, text: string): TS.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}

function unwrap(e: TS.Expression): TS.Expression {
  while (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e)) e = e.expression;
  return e;
}

function objectOptions(arg: TS.Expression | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const o = arg && unwrap(arg);
  if (!o || !ts.isObjectLiteralExpression(o)) return out;
  for (const p of o.properties) if (ts.isPropertyAssignment(p)) out[p.name.getText()] = p.initializer.getText();
  return out;
}

/** The exported `stages` array literal of a file, if it has one. */
function stagesArray(sf: TS.SourceFile): TS.ArrayLiteralExpression | undefined {
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st) || !st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const d of st.declarationList.declarations) {
      if (ts.isIdentifier(d.name) && d.name.text === 'stages' && d.initializer) {
        const init = unwrap(d.initializer);
        if (ts.isArrayLiteralExpression(init)) return init;
      }
    }
  }
  return undefined;
}

function storeCall(sf: TS.SourceFile): TS.NewExpression | undefined {
  let found: TS.NewExpression | undefined;
  const visit = (n: TS.Node) => {
    if (found) return;
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'UnitStore') found = n;
    else ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

function callOf(e: TS.Expression): StageCall {
  const x = unwrap(e);
  const name = ts.isCallExpression(x) && ts.isIdentifier(x.expression) ? x.expression.text : (x.getText().match(/[A-Za-z_$][\w$]*/)?.[0] ?? '');
  return { name, text: e.getText(), options: ts.isCallExpression(x) ? objectOptions(x.arguments[0]) : {} };
}

/** The program's pipeline (index.ts first, then the other files), or undefined when it has no stages array. */
export function readPipeline(files: ProgramFiles): Pipeline | undefined {
  const names = Object.keys(files).sort((a, b) => (a === 'index.ts' ? -1 : b === 'index.ts' ? 1 : a.localeCompare(b)));
  for (const file of names) {
    const sf = parse(file, files[file] as string);
    const array = stagesArray(sf);
    if (!array) continue;
    const store = storeCall(sf);
    return { file, stages: array.elements.map(callOf), store: objectOptions(store?.arguments?.[0]) };
  }
  return undefined;
}

/** A call's text with one option set (added when absent). */
export function withOption(call: StageCall, key: string, value: string): string {
  const options = { ...call.options, [key]: value };
  const inner = Object.entries(options).map(([k, v]) => `${k}: ${v}`).join(', ');
  return `${call.name}({ ${inner} })`;
}

/** Names imported from automemo/lib/pipeline in a file, and the declaration that imports them. */
function pipelineImport(sf: TS.SourceFile): TS.ImportDeclaration | undefined {
  return sf.statements.find((s): s is TS.ImportDeclaration => ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text === PIPELINE_MODULE);
}

/** The file with `names` imported from automemo/lib/pipeline (added to its import, or a new import line). */
export function ensureImports(text: string, names: string[]): string {
  const sf = parse('x.ts', text);
  const decl = pipelineImport(sf);
  const bindings = decl?.importClause?.namedBindings;
  const have = new Set(bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => e.name.text) : []);
  const missing = [...new Set(names)].filter((n) => !have.has(n));
  if (!missing.length) return text;
  if (decl && bindings && ts.isNamedImports(bindings)) {
    const all = [...bindings.elements.map((e) => e.getText()), ...missing];
    return text.slice(0, bindings.getStart()) + `{ ${all.join(', ')} }` + text.slice(bindings.getEnd());
  }
  const last = [...sf.statements].reverse().find(ts.isImportDeclaration);
  const line = `import { ${missing.join(', ')} } from '${PIPELINE_MODULE}';\n`;
  const at = last ? last.getEnd() + 1 : 0;
  return text.slice(0, at) + line + text.slice(at);
}

/** Identifiers a stage call's text calls (its own name and any stage inside it, e.g. a route's stages). */
export function calledNames(text: string): string[] {
  return [...text.matchAll(/\b([A-Za-z_$][\w$]*)\s*\(/g)].map((m) => m[1] as string);
}

/** The program with its stages array replaced by `stages` (texts), the names they call imported. */
export function writeStages(files: ProgramFiles, stages: string[]): ProgramFiles {
  const pipeline = readPipeline(files);
  if (!pipeline) throw new Error('the program has no exported stages array');
  const text = files[pipeline.file] as string;
  const array = stagesArray(parse(pipeline.file, text)) as TS.ArrayLiteralExpression;
  const body = stages.length ? `[\n${stages.map((s) => `  ${s},`).join('\n')}\n]` : '[]';
  const next = text.slice(0, array.getStart()) + body + text.slice(array.getEnd());
  const lib = new Set(PIPELINE_STAGE_NAMES);
  return { ...files, [pipeline.file]: ensureImports(next, stages.flatMap(calledNames).filter((n) => lib.has(n))) };
}

/** The program with one option of its `new UnitStore({ ... })` set. */
export function writeStoreOption(files: ProgramFiles, key: string, value: string): ProgramFiles {
  const pipeline = readPipeline(files);
  if (!pipeline) throw new Error('the program has no exported stages array');
  const text = files[pipeline.file] as string;
  const call = storeCall(parse(pipeline.file, text));
  if (!call) throw new Error('the program builds no UnitStore');
  const options = { ...objectOptions(call.arguments?.[0]), [key]: value };
  const literal = `new UnitStore({ ${Object.entries(options).map(([k, v]) => `${k}: ${v}`).join(', ')} })`;
  return { ...files, [pipeline.file]: text.slice(0, call.getStart()) + literal + text.slice(call.getEnd()) };
}

/** Every stage factory automemo/lib/pipeline exports (what an edit may add and must import): the declared stages and the router. */
export const PIPELINE_STAGE_NAMES = [...STAGE_DECLARATIONS.map((d) => d.name), 'routeByKind'];
