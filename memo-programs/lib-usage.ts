// Which automemo/lib declarations a program uses, read from its import declarations by the compiler (not from its
// text): every name it imports from 'automemo/lib' or 'automemo/lib/<module>', resolved through re-exports to the
// declaration it is; with, for a prompt that shows them in full, their close neighbours — the other stages of the
// same module (the alternatives of one idea: the fusions, the expansions) — and every declaration their signatures
// name, transitively (Stage → RetrievalState → Hit). Not followed: the option machinery of tunables.ts and
// constants (the stage list shows every stage's options), which would only repeat what every prompt already has.
import type TS from 'typescript';
import { typescript } from '../foundation/typescript.ts';
import { type DeclarationKey, libModel } from './lib-declarations.ts';

/** Programs are model output: at most this many files and characters are parsed. */
const MAX_FILES = 64;
const MAX_CHARS = 2_000_000;

/** The lib declarations a program's files import (a namespace import: every export of that module). */
export function libImportsOf(files: Readonly<Record<string, string>>): Set<DeclarationKey> {
  const ts = typescript();
  const { exports } = libModel();
  const out = new Set<DeclarationKey>();
  let chars = 0;
  for (const [name, text] of Object.entries(files).slice(0, MAX_FILES)) {
    if (!name.endsWith('.ts') || (chars += text.length) > MAX_CHARS) continue;
    const sf = ts.createSourceFile(name, text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
    for (const s of sf.statements) {
      const spec = (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier;
      if (!spec || !ts.isStringLiteral(spec)) continue;
      const names = exports.get(spec.text);
      if (!names) continue;
      for (const key of importedKeys(ts, s as TS.ImportDeclaration | TS.ExportDeclaration, names)) out.add(key);
    }
  }
  return out;
}

function importedKeys(
  ts: typeof TS,
  s: TS.ImportDeclaration | TS.ExportDeclaration,
  names: Map<string, DeclarationKey>,
): DeclarationKey[] {
  const bindings = ts.isImportDeclaration(s) ? s.importClause?.namedBindings : s.exportClause;
  // `import * as lib`, `export * from`: the whole module.
  if (!bindings || ts.isNamespaceImport(bindings) || ts.isNamespaceExport(bindings)) return [...names.values()];
  return bindings.elements.flatMap((e) => {
    const key = names.get((e.propertyName ?? e.name).text);
    return key ? [key] : [];
  });
}

/** The declarations to show in full for a program using `used`: them, their modules' other stages, what they name. */
export function withNeighbours(used: Iterable<DeclarationKey>): Set<DeclarationKey> {
  const { declarations } = libModel();
  const all = [...declarations.values()];
  const out = new Set<DeclarationKey>();
  const follow = (k: DeclarationKey): boolean => {
    const d = declarations.get(k);
    return !!d && d.module !== 'tunables' && d.kind !== 'const';
  };
  const queue: DeclarationKey[] = [];
  const add = (k: DeclarationKey) => {
    if (out.has(k) || !declarations.has(k)) return;
    out.add(k);
    queue.push(k);
  };
  for (const k of used) {
    add(k);
    const d = declarations.get(k);
    if (d?.stage) for (const n of all) if (n.stage && n.module === d.module) add(n.key);
  }
  while (queue.length)
    for (const r of declarations.get(queue.shift() as DeclarationKey)?.refs ?? []) if (follow(r)) add(r);
  return out;
}
