import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, ProgramTypeChecker, typeChecker } from '../../sandbox/typecheck.ts';
import { seedsDir } from '../../foundation/paths.ts';

const fixtures = join(import.meta.dirname, 'fixtures');

describe('type-check against the contract', () => {
  it('passes the seeds and a multi-file program', () => {
    for (const p of [
      join(seedsDir, 'no-memory.ts'),
      join(seedsDir, 'trajectory-retrieval.ts'),
      join(fixtures, 'multi-file'),
    ]) {
      expect(typeChecker().check(p).diagnostics).toEqual([]);
    }
  });

  it('reports diagnostics as line:col message', () => {
    const code = [
      "import { defineMemo } from 'automemo/contract';",
      'const n: number = "seven";',
      "export default defineMemo({ update() {}, retrieve: () => ({ text: '', images: [] }) });",
    ].join('\n');
    const { diagnostics } = typeChecker().check(join(fixtures, 'typed.ts'), code);
    expect(diagnostics.map((d) => formatDiagnostic(d, 'typed.ts'))).toEqual([
      "2:7 Type 'string' is not assignable to type 'number'.",
    ]);
  });

  it('says when the default export does not implement MemoProgram', () => {
    const code = 'export default { update() {} };\n';
    const { diagnostics } = typeChecker().check(join(fixtures, 'partial.ts'), code);
    expect(diagnostics[0]?.message).toMatch(
      /default export does not implement MemoProgram: Property 'retrieve' is missing/,
    );
    expect(diagnostics[0]?.line).toBe(1);
  });

  it('has no Node or DOM globals in scope', () => {
    const code =
      "import { defineMemo } from 'automemo/contract';\nexport default defineMemo({ update() { process.exit(); document.title; }, retrieve: () => ({ text: '', images: [] }) });";
    const msgs = typeChecker()
      .check(join(fixtures, 'globals.ts'), code)
      .diagnostics.map((d) => d.message);
    expect(msgs.some((m) => m.includes("Cannot find name 'process'"))).toBe(true);
    expect(msgs.some((m) => m.includes("Cannot find name 'document'"))).toBe(true);
  });

  it('reuses its warm state: a second check of a program parses no file from disk again', () => {
    // What makes a warm check fast, asserted as a count rather than a time (a timing ratio is a race on a loaded
    // machine): the lib, contract and helper files are parsed once, then reused while unchanged.
    const p = join(seedsDir, 'trajectory-retrieval.ts');
    const checker = new ProgramTypeChecker();
    expect(checker.check(p).diagnostics).toEqual([]);
    const cold = checker.parsedFromDisk;
    expect(cold).toBeGreaterThan(3);
    for (let i = 0; i < 3; i++) expect(checker.check(p).diagnostics).toEqual([]);
    expect(checker.parsedFromDisk).toBe(cold);
    checker.reset();
    checker.check(p);
    expect(checker.parsedFromDisk).toBe(2 * cold);
  });

  it('a program that breaks the checker gets a diagnostic naming it, and the checker keeps working', () => {
    // The checker recurses per nesting level and throws; a fresh checker passes a known-good program, so the
    // program is what breaks it: a diagnostic (repairable), not a crash and not "the checker is down".
    const code = `import { defineMemo } from 'automemo/contract';\nconst x = ${'('.repeat(50_000)}1${')'.repeat(50_000)};\nexport default defineMemo({ update() {}, retrieve: () => ({ text: String(x), images: [] }) });\n`;
    const { diagnostics } = typeChecker().check(join(fixtures, 'deep.ts'), code);
    expect(diagnostics.map((d) => formatDiagnostic(d, 'deep.ts'))).toEqual([
      '1:1 the TypeScript checker failed on this program: Maximum call stack size exceeded (is it nested too deeply?)',
    ]);
    expect(typeChecker().check(join(seedsDir, 'trajectory-retrieval.ts')).diagnostics).toEqual([]);
  });
});
