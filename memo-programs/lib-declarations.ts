// automemo/lib as typed data, for the meta agent's prompts: every exported declaration of every helper module with
// the text a prompt shows of it (TypeScript's declaration emit: inferred types included, bodies dropped, docs cut to
// their first sentence and contract tags), the lib declarations its text names (so a declaration can be shown with
// those its signature needs), and where each name a program may import resolves to (through re-exports such as
// 'automemo/lib/pipeline'). Read from the compiler, so the prompt can never drift from the code a program imports.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type TS from 'typescript';
import { libDir } from '../foundation/paths.ts';
import { typescript } from '../foundation/typescript.ts';
import { STAGE_DECLARATIONS } from './lib/pipeline.ts';

/** A declaration's key: `<module>:<name>`, the module being its file under automemo/lib without `.ts`. */
export type DeclarationKey = `${string}:${string}`;

export interface LibDeclaration {
  key: DeclarationKey;
  module: string;
  name: string;
  kind: 'function' | 'class' | 'interface' | 'type' | 'const' | 'enum';
  /** The declaration as a prompt shows it in full (overloads one after another). */
  text: string;
  /** The first sentence of its doc ('' when it has none). */
  summary: string;
  /** Its parameters' names, `?` marking optional ones (functions only). */
  params: string[];
  /** A class's public members' names (methods with `()`). */
  members: string[];
  /** A pipeline stage (listed in STAGE_DECLARATIONS): the prompt's stage list says what it does and its options. */
  stage: boolean;
  /** A stage's declared tunables (`const X: DeclaredStage<…>`): the stage list shows them. */
  stageDeclaration: boolean;
  /** The lib declarations its text names (types of its parameters, members, fields). */
  refs: DeclarationKey[];
}

export interface LibModel {
  modules: string[];
  declarations: Map<DeclarationKey, LibDeclaration>;
  /** Per import specifier ('automemo/lib', 'automemo/lib/<module>'), each exported name and the declaration it is. */
  exports: Map<string, Map<string, DeclarationKey>>;
}

/** The JSDoc tags a stage's contract is stated in: the state fields it reads and writes, hit order, id formats. */
export const CONTRACT_TAGS = ['reads', 'writes', 'order', 'ids'] as const;

const ts = typescript();
let cached: { key: string; model: LibModel } | undefined;

/** The lib's files that a program may import, index included (it re-exports the small helpers). */
function libFiles(): string[] {
  return readdirSync(libDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .sort()
    .map((f) => join(libDir, f));
}

const moduleOf = (file: string) => file.slice(libDir.length + 1).replace(/\.d\.ts$|\.ts$/, '');

/** A JSDoc body reduced to its first sentence, and its contract tags (one line each, as `reads: …`). */
function docParts(body: string): { first: string; tags: string[] } {
  const lines = body.split('\n').map((l) => l.replace(/^\s*\*\s?/, '').trim());
  const tagAt = lines.findIndex((l) => l.startsWith('@'));
  const text = (tagAt < 0 ? lines : lines.slice(0, tagAt)).filter(Boolean).join(' ');
  const first = text.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? text;
  const tags = (tagAt < 0 ? [] : lines.slice(tagAt))
    .join('\n')
    .split(/\n(?=@)/)
    .flatMap((t) => {
      const m = /^@(\w+)\s+([\s\S]*)$/.exec(t);
      return m && (CONTRACT_TAGS as readonly string[]).includes(m[1] as string)
        ? [`${m[1]}: ${(m[2] as string).replace(/\s+/g, ' ').trim()}`]
        : [];
    });
  return { first, tags };
}

/** A declaration's emitted text as a prompt shows it: docs cut, export keywords, private members and qualifiers dropped. */
function shown(dts: string): string {
  return (
    dts
      .replace(/\/\*\*([\s\S]*?)\*\//g, (_, body: string) => {
        const { first, tags } = docParts(body);
        if (!first && !tags.length) return '';
        return tags.length ? `/** ${first}\n * ${tags.join('\n * ')} */` : `/** ${first} */`;
      })
      .replace(/^\s*\/\/.*$/gm, '')
      // A type another helper module declares is named as that module declares it: the emit's import("./x.ts").
      // qualifier only lengthens the prompt.
      .replace(/\bimport\("\.\/[\w-]+\.ts"\)\./g, '')
      // Private members are not a program's to use: the emit lists them (with their docs) without their types.
      .replace(/^[ \t]*(?:\/\*\*[^\n]*\*\/\n[ \t]*)?private [^\n]*;$/gm, '')
      // Every declaration is an export (the prompt says so): the keywords and the emit's 4-space indent are dropped.
      .replace(/^export (declare )?/gm, '')
      .replace(/^((?: {4})+)/gm, (m) => '  '.repeat(m.length / 4))
      .replace(/\n{2,}/g, '\n')
      .trim()
  );
}

function kindOf(s: TS.Statement): LibDeclaration['kind'] | undefined {
  if (ts.isFunctionDeclaration(s)) return 'function';
  if (ts.isClassDeclaration(s)) return 'class';
  if (ts.isInterfaceDeclaration(s)) return 'interface';
  if (ts.isTypeAliasDeclaration(s)) return 'type';
  if (ts.isVariableStatement(s)) return 'const';
  if (ts.isEnumDeclaration(s)) return 'enum';
  return undefined;
}

function namesOf(s: TS.Statement): string[] {
  if (ts.isVariableStatement(s))
    return s.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  const name = (s as TS.DeclarationStatement).name;
  return name && ts.isIdentifier(name) ? [name.text] : [];
}

/** The type names a declaration's text uses, each with the module it comes from (undefined: this module or global). */
function typeNames(node: TS.Node, imported: Map<string, string>): { name: string; module: string | undefined }[] {
  const out: { name: string; module: string | undefined }[] = [];
  const visit = (n: TS.Node): void => {
    if (ts.isTypeReferenceNode(n) || ts.isExpressionWithTypeArguments(n)) {
      const id = ts.isTypeReferenceNode(n) ? n.typeName : n.expression;
      const first = ts.isQualifiedName(id) ? id.left : id;
      if (ts.isIdentifier(first)) out.push({ name: first.text, module: imported.get(first.text) });
    } else if (ts.isTypeQueryNode(n) && ts.isIdentifier(n.exprName)) {
      out.push({ name: n.exprName.text, module: imported.get(n.exprName.text) });
    } else if (ts.isImportTypeNode(n) && n.qualifier) {
      const arg = n.argument;
      const spec = ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal) ? arg.literal.text : '';
      const q = ts.isQualifiedName(n.qualifier) ? n.qualifier.left : n.qualifier;
      if (ts.isIdentifier(q) && spec.startsWith('./')) out.push({ name: q.text, module: moduleOf(join(libDir, spec)) });
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return out;
}

/** The name a type reference names, written `X<…>` or (inferred) `import("./m.ts").X<…>`. */
function referencedName(t: TS.TypeNode): string | undefined {
  const name = ts.isTypeReferenceNode(t) ? t.typeName : ts.isImportTypeNode(t) ? t.qualifier : undefined;
  return name && (ts.isIdentifier(name) ? name.text : name.right.text);
}

/** A class's public members, methods marked `()`. */
function membersOf(s: TS.Statement): string[] {
  if (!ts.isClassDeclaration(s)) return [];
  return s.members.flatMap((m) => {
    const mods = ts.canHaveModifiers(m) ? (ts.getModifiers(m) ?? []) : [];
    if (mods.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword)) return [];
    if (ts.isConstructorDeclaration(m)) return [];
    const name = m.name && (ts.isIdentifier(m.name) || ts.isPrivateIdentifier(m.name)) ? m.name.text : undefined;
    if (!name || name.startsWith('#')) return [];
    return [ts.isMethodDeclaration(m) ? `${name}()` : name];
  });
}

const paramsOf = (s: TS.Statement) =>
  ts.isFunctionDeclaration(s)
    ? s.parameters.map((p) => `${p.dotDotDotToken ? '...' : ''}${p.name.getText()}${p.questionToken ? '?' : ''}`)
    : [];

/** The declarations of one module's emitted .d.ts, overloads merged. */
function declarationsOf(module: string, dts: string, stages: Set<string>): LibDeclaration[] {
  const sf = ts.createSourceFile(`${module}.d.ts`, dts, ts.ScriptTarget.ES2022, true);
  const imported = new Map<string, string>();
  for (const s of sf.statements)
    if (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text.startsWith('./')) {
      const from = moduleOf(join(libDir, s.moduleSpecifier.text));
      const b = s.importClause?.namedBindings;
      if (b && ts.isNamedImports(b)) for (const e of b.elements) imported.set(e.name.text, from);
    }
  const out = new Map<string, LibDeclaration & { pending: { name: string; module: string | undefined }[] }>();
  for (const s of sf.statements) {
    const kind = kindOf(s);
    if (!kind) continue;
    const text = shown(s.getFullText(sf));
    const doc = ts.getJSDocCommentsAndTags(s).find(ts.isJSDoc);
    const summary = doc ? docParts(doc.getText(sf).replace(/^\/\*\*|\*\/$/g, '')).first : '';
    for (const name of namesOf(s)) {
      const old = out.get(name);
      if (old) {
        old.text += `\n${text}`;
        old.pending.push(...typeNames(s, imported));
        continue;
      }
      const stageDeclaration =
        ts.isVariableStatement(s) &&
        s.declarationList.declarations.some((d) => d.type && referencedName(d.type) === 'DeclaredStage');
      out.set(name, {
        key: `${module}:${name}`,
        module,
        name,
        kind,
        text,
        summary,
        params: paramsOf(s),
        members: membersOf(s),
        stage: kind === 'function' && stages.has(name),
        stageDeclaration,
        refs: [],
        pending: typeNames(s, imported),
      });
    }
  }
  const local = new Set(out.keys());
  return [...out.values()].map(({ pending, ...d }) => ({
    ...d,
    refs: [
      ...new Set(
        pending.flatMap((t): DeclarationKey[] => {
          const m = t.module ?? (local.has(t.name) ? module : undefined);
          return m && !(m === module && t.name === d.name) ? [`${m}:${t.name}`] : [];
        }),
      ),
    ],
  }));
}

/** Each import specifier's exported names, resolved through re-exports to the declaration each one is. */
function exportsOf(program: TS.Program, files: string[]): Map<string, Map<string, DeclarationKey>> {
  const checker = program.getTypeChecker();
  const out = new Map<string, Map<string, DeclarationKey>>();
  for (const f of files) {
    const sf = program.getSourceFile(f);
    const symbol = sf && checker.getSymbolAtLocation(sf);
    if (!symbol) continue;
    const names = new Map<string, DeclarationKey>();
    for (const e of checker.getExportsOfModule(symbol)) {
      const target = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e;
      const decl = target.declarations?.[0];
      if (!decl) continue;
      names.set(e.name, `${moduleOf(decl.getSourceFile().fileName)}:${target.name}`);
    }
    const m = moduleOf(f);
    out.set(m === 'index' ? 'automemo/lib' : `automemo/lib/${m}`, names);
  }
  return out;
}

/** automemo/lib read through the compiler once per change of its files. */
export function libModel(): LibModel {
  const files = libFiles();
  const key = files.map((f) => `${f}:${statSync(f).mtimeMs}`).join('|');
  if (cached?.key === key) return cached.model;
  const program = ts.createProgram(files, {
    declaration: true,
    emitDeclarationOnly: true,
    removeComments: false,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    strict: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts'],
  });
  const emitted = new Map<string, string>();
  program.emit(undefined, (name, text) => emitted.set(moduleOf(name), text));
  const stages = new Set(STAGE_DECLARATIONS.map((d) => d.name));
  const modules = files.map(moduleOf).filter((m) => m !== 'index');
  const declarations = new Map<DeclarationKey, LibDeclaration>();
  for (const m of modules)
    for (const d of declarationsOf(m, emitted.get(m) ?? '', stages))
      // A re-export's source keeps the declaration (the emit of a re-exporting module declares nothing new).
      declarations.set(d.key, d);
  const model = { modules, declarations, exports: exportsOf(program, files) };
  cached = { key, model };
  return model;
}
