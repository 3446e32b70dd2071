// Finds every module reference in a program file — static imports and re-exports (even unused or type-only
// ones, which esbuild would drop silently), dynamic import(), require() and import.meta — with its position.
import type ts from 'typescript';
import { typescript } from '../foundation/typescript.ts';

export interface ModuleReference {
  /** The specifier, or undefined when it is computed at run time. */
  specifier: string | undefined;
  kind: 'import' | 'export' | 'dynamic-import' | 'require' | 'import-meta';
  typeOnly: boolean;
  line: number;
  column: number;
}

export function scanModuleReferences(fileName: string, code: string): ModuleReference[] {
  const ts = typescript();
  const sf = ts.createSourceFile(fileName, code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const out: ModuleReference[] = [];
  const at = (node: ts.Node) => {
    const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    return { line: line + 1, column: character + 1 };
  };
  const literal = (e: ts.Expression | undefined) =>
    e && (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) ? e.text : undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      out.push({
        specifier: literal(node.moduleSpecifier),
        kind: 'import',
        typeOnly: !!node.importClause?.isTypeOnly,
        ...at(node),
      });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      out.push({ specifier: literal(node.moduleSpecifier), kind: 'export', typeOnly: node.isTypeOnly, ...at(node) });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      out.push({ specifier: literal(node.moduleReference.expression), kind: 'require', typeOnly: false, ...at(node) });
    } else if (ts.isCallExpression(node)) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        out.push({ specifier: literal(node.arguments[0]), kind: 'dynamic-import', typeOnly: false, ...at(node) });
      } else if (ts.isIdentifier(node.expression) && node.expression.text === 'require') {
        out.push({ specifier: literal(node.arguments[0]), kind: 'require', typeOnly: false, ...at(node) });
      }
    } else if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) {
      out.push({ specifier: undefined, kind: 'import-meta', typeOnly: false, ...at(node) });
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      const spec = ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal) ? arg.literal.text : undefined;
      out.push({ specifier: spec, kind: 'import', typeOnly: true, ...at(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}
