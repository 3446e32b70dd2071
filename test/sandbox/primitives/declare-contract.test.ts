// The public contract (memo-programs/contract.ts) stays a hand-written type; the declarations in
// sandbox/primitives/catalog.ts are checked against it by the TypeScript compiler. The suite does not run tsc, so
// this test does: the real catalog type-checks, and each way a declaration and the contract can disagree (a
// schema that refuses the contract's arguments, a different number of arguments, another result, a method the
// contract lacks, a contract method nobody declares) is a compile error naming the problem.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../foundation/paths.ts';

const DIR = join(repoRoot, 'sandbox', 'primitives');
const CATALOG = join(DIR, 'catalog.ts');
const HEADER = `import { z } from 'zod';\nimport { ctxMethod, indexMethod, marshalled } from './declare.ts';\nconst Image = z.object({ id: z.string() });\nvoid Image;\n`;

/** Planted files, by name, in sandbox/primitives/ (served from memory, never written). */
const PLANTS: Record<string, string> = {
  'planted-good.ts': `${HEADER}export const ok = [
  ctxMethod('images.phash', { args: z.tuple([Image]), quota: 'imageCalls', run: () => '00' }),
  indexMethod('size', { args: z.tuple([z.number().int()]), run: () => 3 }),
];`,
  'planted-schema.ts': `${HEADER}export const bad = ctxMethod('images.phash', { args: z.tuple([z.number()]), run: () => '00' });`,
  'planted-arity.ts': `${HEADER}export const bad = ctxMethod('images.phash', { args: z.tuple([Image, z.number().optional()]), run: () => '00' });`,
  'planted-result.ts': `${HEADER}export const bad = indexMethod('size', { args: z.tuple([z.number().int()]), run: () => 'many' });`,
  'planted-unknown.ts': `${HEADER}export const bad = ctxMethod('images.rotate', { args: z.tuple([Image]), run: () => null });`,
  'planted-serves.ts': `${HEADER}export const bad = marshalled('kv.touch', { serves: ['kv.touch'], args: z.tuple([z.string()]), run: () => null });`,
};
/** The contract grows a ctx method and an index method that no declaration serves. */
const GROWN_CONTRACT = `declare module '../../memo-programs/contract.ts' {
  interface MemoContext { translate(text: string): Promise<string>; }
  interface VectorIndex { clear(): Promise<void>; }
}
export {};`;

function compilerOptions(): ts.CompilerOptions {
  const file = join(repoRoot, 'tsconfig.json');
  const json = ts.readConfigFile(file, (f) => readFileSync(f, 'utf8'));
  return { ...ts.parseJsonConfigFileContent(json.config, ts.sys, dirname(file)).options, noEmit: true };
}

/** Errors per file name (base name) of a program over the catalog and the given planted files. */
function check(plants: Record<string, string>, previous?: ts.Program): { byFile: Map<string, string[]>; program: ts.Program } {
  const options = compilerOptions();
  const base = ts.createCompilerHost(options, true);
  const planted = new Map(Object.entries(plants).map(([name, text]) => [join(DIR, name), text]));
  const host: ts.CompilerHost = {
    ...base,
    fileExists: (f) => planted.has(f) || base.fileExists(f),
    readFile: (f) => planted.get(f) ?? base.readFile(f),
    getSourceFile: (f, version, ...rest) => {
      const text = planted.get(f);
      return text === undefined ? base.getSourceFile(f, version, ...rest) : ts.createSourceFile(f, text, version, true);
    },
  };
  const program = ts.createProgram({ rootNames: [CATALOG, ...planted.keys()], options, host, ...(previous ? { oldProgram: previous } : {}) });
  // Only the declaring files are checked in full; what they import is checked as far as they use it.
  const byFile = new Map<string, string[]>();
  for (const file of [CATALOG, join(DIR, 'declare.ts'), ...planted.keys()]) {
    const sf = program.getSourceFile(file);
    if (!sf) throw new Error(`${file} is not in the program`);
    const errors = [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];
    if (errors.length) byFile.set(file.slice(DIR.length + 1), errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')));
  }
  return { byFile, program };
}

let planted: ReturnType<typeof check>;

beforeAll(() => {
  planted = check(PLANTS);
}, 120_000);

describe('host primitive declarations against the contract', () => {
  it('the catalog and a declaration that matches the contract type-check', () => {
    expect(planted.byFile.get('catalog.ts')).toBeUndefined();
    expect(planted.byFile.get('declare.ts')).toBeUndefined();
    expect(planted.byFile.get('planted-good.ts')).toBeUndefined();
  });

  it.each([
    ['planted-schema.ts', "the contract's arguments do not all pass the schema"],
    ['planted-arity.ts', 'the schema has a different number of arguments than the contract'],
    ['planted-result.ts', 'string'],
    ['planted-unknown.ts', '"images.rotate"'],
    ['planted-serves.ts', '"kv.touch"'],
  ])('%s does not compile (%s)', (file, says) => {
    const errors = planted.byFile.get(file) ?? [];
    expect(errors.length, `${file} compiled`).toBeGreaterThan(0);
    expect(errors.join('\n')).toContain(says);
  });

  it('a contract method that no declaration serves fails the catalog, named', () => {
    const { byFile } = check({ 'planted-contract.ts': GROWN_CONTRACT }, planted.program);
    const errors = (byFile.get('catalog.ts') ?? []).join('\n');
    expect(errors).toContain('"translate"');
    expect(errors).toContain('"index.clear"');
  }, 120_000);
});
