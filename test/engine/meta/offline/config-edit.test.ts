// The offline agent reads a program's exported config with the TypeScript compiler: a string leaf's alternatives come
// from its declared union, within the program's own files. What the program imports from disk is never read (a
// program is written by a model: it may name any path), and the compiler's libraries are parsed once per process.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configLeaves } from '../../../../engine/meta/offline/config-edit.ts';

const dir = mkdtempSync(join(tmpdir(), 'config-edit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const program = (modeFrom: string) => ({
  'index.ts': `import type { Mode } from ${JSON.stringify(modeFrom)};\nexport const config: { k: number; mode: Mode } = { k: 5, mode: 'rank' };\n`,
});

describe("a program's config, read for the offline agent", () => {
  it("finds a string leaf's alternatives in the program's own files", () => {
    const files = { ...program('./types.ts'), 'types.ts': "export type Mode = 'rank' | 'greedy' | 'mmr';\n" };
    const leaves = configLeaves(files);
    expect(leaves.map((l) => l.path)).toEqual(['k', 'mode']);
    expect(leaves.find((l) => l.path === 'mode')?.alternatives).toEqual(['greedy', 'mmr']);
  });

  it('reads nothing the program names on disk', () => {
    const outside = join(dir, 'types.ts');
    writeFileSync(outside, "export type Mode = 'rank' | 'greedy' | 'mmr';\n");
    const leaves = configLeaves(program(outside));
    expect(leaves.find((l) => l.path === 'mode')?.alternatives).toEqual([]);
  });
});
