// The library on a module benchmark in a folder with nothing installed beside it: search, then export — also after
// the module moved (the run's copy stands in); a module whose content is wrong is a ContentError naming the file,
// never a usage error. (The CLI's side: test/cli/outside-benchmark.test.ts and test/cli/env-option.test.ts.)
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ContentError, exportRun, search } from 'automemo';
import { resolveModels } from '../../foundation/llm/models.ts';
import { repoRoot } from '../../foundation/paths.ts';

const dir = mkdtempSync(join(tmpdir(), 'outside-module-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const models = resolveModels({}, {});

describe('a module benchmark outside the repository, through the library', () => {
  it('searches, and exports after the module moved away, from the run\'s copy of it', async () => {
    expect(readdirSync(dir)).toEqual([]);
    const envFile = join(dir, 'vaults.ts');
    writeFileSync(envFile, readFileSync(join(repoRoot, 'examples', 'vault-env', 'env.ts'), 'utf8'));
    const run = join(dir, 'run');
    const result = await search({ env: envFile, budget: 1, out: run, test: false, seeds: ['bm25'], models });
    expect(result.env.source).toMatchObject({ kind: 'module', path: envFile });
    expect(result.steps).toBe(1);

    renameSync(envFile, join(dir, 'moved.ts'));
    const notes: string[] = [];
    const exported = await exportRun({ run, out: join(dir, 'pkg'), format: 'npm', native: 'source', onNote: (n) => notes.push(n) });
    expect(notes.join('\n')).toMatch(/vaults\.ts is gone \(moved or deleted since the run started\).*the run's copy of it/);
    expect(existsSync(join(exported.out, 'memory', 'memory.json'))).toBe(true);
    expect(readFileSync(join(exported.out, 'package.json'), 'utf8')).not.toContain(dir);
  }, 240_000);

  it('names a syntax error by file:line:col, as content (no usage)', async () => {
    const broken = join(dir, 'broken.ts');
    writeFileSync(broken, "export default {\n  name: 'x'\n  summary: 's',\n};\n");
    const err = await search({ env: broken, budget: 0, out: join(dir, 'run-broken'), models }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContentError);
    expect((err as Error).message).toContain(`${broken}:3:3: Expected "}" but found "summary"`);
  });
});
