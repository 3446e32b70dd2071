import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';
import { resolveProgram } from '../../memo-programs/registry.ts';
import { compileProgram, formatIssue } from '../../sandbox/compile.ts';
import { esbuildServicePids, killEsbuildService } from '../support/esbuild-service.ts';

const fixtures = join(import.meta.dirname, 'fixtures');

describe('compileProgram', () => {
  it('bundles a multi-file program with helpers and graphology into one IIFE', async () => {
    const r = await compileProgram({ entryPath: join(fixtures, 'multi-file') });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.program.files).toEqual(['index.ts', 'util.ts']);
    expect(r.program.code).toContain('var __memoModule');
    expect(r.program.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(r.program.map).version).toBe(3);
  });

  it('names each disallowed import, where it is, and the allow-list', async () => {
    const code = [
      "import { defineMemo } from 'automemo/contract';",
      "import { readFileSync } from 'node:fs';",
      "import type { z } from 'zod';",
      "export default defineMemo({ update() {}, retrieve: () => ({ text: '', images: [] }) });",
    ].join('\n');
    const r = await compileProgram({ entryPath: join(fixtures, 'virtual.ts'), code });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const text = r.issues.map(formatIssue);
    expect(text[0]).toMatch(/^virtual\.ts:2:1: Import "node:fs" is not allowed: Node built-ins are not available/);
    // Type-only imports are checked too: esbuild would drop them silently.
    expect(text[1]).toMatch(/^virtual\.ts:3:1: Import "zod" is not allowed/);
    expect(text[0]).toContain('Allowed: automemo/contract, automemo/lib');
    expect(text[0]).toContain('graphology-shortest-path');
  });

  it('checks imports in every program file, not only the entry', async () => {
    const code =
      "import { defineMemo } from 'automemo/contract';\nimport { x } from './bad-dep.ts';\nexport default defineMemo({ update() {}, retrieve: () => ({ text: x, images: [] }) });";
    const dep = join(fixtures, 'bad-dep.ts');
    const { writeFileSync, rmSync } = await import('node:fs');
    writeFileSync(dep, "import os from 'os';\nexport const x = os.hostname();\n");
    try {
      const r = await compileProgram({ entryPath: join(fixtures, 'entry-virtual.ts'), code });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.issues.map(formatIssue).join('\n')).toMatch(/bad-dep\.ts:1:1: Import "os" is not allowed/);
    } finally {
      rmSync(dep);
    }
  });

  it('rejects unknown helpers by name and reports syntax errors with a position', async () => {
    const r1 = await compileProgram({
      entryPath: join(fixtures, 'v.ts'),
      code: "import { x } from 'automemo/lib/nope';\nexport default x;",
    });
    expect(!r1.ok && formatIssue(r1.issues[0] as never)).toMatch(/automemo\/lib has no helper "nope"/);
    const r2 = await compileProgram({ entryPath: join(fixtures, 'v.ts'), code: 'export default {\n  update( {\n};' });
    expect(r2.ok).toBe(false);
    if (!r2.ok) expect(r2.issues[0]?.line).toBeGreaterThan(0);
  });

  it('explains a missing program file', async () => {
    const r = await compileProgram({ entryPath: join(fixtures, 'does-not-exist.ts') });
    expect(!r.ok && r.issues[0]?.message).toMatch(/cannot read program/);
  });

  it('tells a program nested too deeply for the parser, instead of throwing', async () => {
    const code = `import { defineMemo } from 'automemo/contract';\nconst x = ${'('.repeat(50_000)}1${')'.repeat(50_000)};\nexport default defineMemo({ update() {}, retrieve: () => ({ text: String(x), images: [] }) });\n`;
    const r = await compileProgram({ entryPath: join(fixtures, 'deep.ts'), code });
    expect(!r.ok && formatIssue(r.issues[0] as never)).toMatch(
      /^deep\.ts: the program could not be parsed: it is nested too deeply/,
    );
  });
});

describe('compileProgram when esbuild dies', () => {
  const entryPath = resolveProgram('trajectory-retrieval').path;

  it('restarts a service that died (killed, as when it stops hearing from its host) and compiles', async () => {
    const first = await compileProgram({ entryPath });
    expect(first.ok).toBe(true);
    expect(await killEsbuildService()).toBe(1);
    const again = await compileProgram({ entryPath });
    expect(again.ok && first.ok && again.program.hash === first.program.hash).toBe(true);
    expect(esbuildServicePids()).toHaveLength(1);
  });

  it('finishes a compile whose service was stopped under it, and the next one', async () => {
    // stop() strands a build in flight (it never answers): the compile's watchdog restarts the service.
    const pending = compileProgram({ entryPath }, { timeoutMs: 5_000 });
    await esbuild.stop();
    const r = await pending;
    expect(r.ok ? 'compiled' : r.issues.map(formatIssue).join('; ')).toBe('compiled');
    expect((await compileProgram({ entryPath })).ok).toBe(true);
  });
});
