// The pipeline editor reads a program's stages array and rewrites it through the compiler API; what it writes still
// type-checks in the sandbox's checker (names imported, literals well formed).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readProgramFiles } from '../../../../memo-programs/files.ts';
import * as lib from '../../../../memo-programs/lib/pipeline.ts';
import { resolveProgram } from '../../../../memo-programs/registry.ts';
import {
  PIPELINE_STAGE_NAMES,
  readPipeline,
  withOption,
  writeStages,
  writeStoreOption,
} from '../../../../engine/meta/offline/stage-edit.ts';
import { typeChecker } from '../../../../sandbox/typecheck.ts';

const seed = readProgramFiles(resolveProgram('pipeline').path);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function typeErrors(files: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'stage-edit-'));
  dirs.push(dir);
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  return typeChecker()
    .check(join(dir, 'index.ts'))
    .diagnostics.map((d) => d.message);
}

describe('the pipeline editor', () => {
  it('reads the stages, their options and the unit store of a pipeline program', () => {
    const p = readPipeline(seed)!;
    expect(p.stages.map((s) => s.name)).toEqual([
      'bm25Stage',
      'denseStage',
      'rrfFuse',
      'neighbourExpand',
      'capPerSource',
      'packWhole',
    ]);
    expect(p.stages[3]!.options).toEqual({ before: '1', after: '1', seeds: '10', decay: '0.7' });
    expect(p.store).toEqual({ units: "'steps'", index: "'both'" });
    expect(readPipeline({ 'index.ts': 'export const config = { k: 1 };' })).toBeUndefined();
  });

  it('knows every stage factory the lib exports', () => {
    for (const name of PIPELINE_STAGE_NAMES) expect(typeof (lib as Record<string, unknown>)[name]).toBe('function');
  });

  it('inserts a stage with its import, removes and replaces stages, and sets options, all type-checking', () => {
    const p = readPipeline(seed)!;
    const texts = p.stages.map((s) => s.text);
    const inserted = writeStages(seed, [
      ...texts.slice(0, 3),
      'timeBoost({ span: 2 })',
      'routeByKind({ entities: [entityQueries({ weight: 0.6 })] })',
      ...texts.slice(3),
    ]);
    expect(readPipeline(inserted)!.stages.map((s) => s.name)).toEqual([
      'bm25Stage',
      'denseStage',
      'rrfFuse',
      'timeBoost',
      'routeByKind',
      'neighbourExpand',
      'capPerSource',
      'packWhole',
    ]);
    expect(inserted['index.ts']).toMatch(
      /import \{[^}]*timeBoost[^}]*routeByKind[^}]*entityQueries[^}]*\} from 'automemo\/lib\/pipeline'/,
    );
    expect(typeErrors(inserted)).toEqual([]);

    const removed = writeStages(
      seed,
      texts.filter((t) => !t.startsWith('capPerSource')),
    );
    expect(readPipeline(removed)!.stages).toHaveLength(5);
    expect(typeErrors(removed)).toEqual([]);

    const tuned = writeStages(
      seed,
      texts.map((t, i) => (i === 3 ? withOption(p.stages[3]!, 'after', '2') : t)),
    );
    expect(readPipeline(tuned)!.stages[3]!.text).toBe(
      'neighbourExpand({ before: 1, after: 2, seeds: 10, decay: 0.7 })',
    );
    const store = writeStoreOption(tuned, 'units', "'windows'");
    expect(readPipeline(store)!.store).toEqual({ units: "'windows'", index: "'both'" });
    expect(typeErrors(store)).toEqual([]);
  });

  it('a program without the pipeline import gets one', () => {
    const bare = {
      'index.ts':
        "import { defineMemo } from 'automemo/contract';\nexport const stages = [];\nexport default defineMemo({ update() {}, retrieve: () => ({ text: '', images: [] }) });\n",
    };
    const out = writeStages(bare, ['bm25Stage({ k: 5 })']);
    expect(out['index.ts']).toContain("import { bm25Stage } from 'automemo/lib/pipeline';");
    expect(out['index.ts']).toContain('export const stages = [\n  bm25Stage({ k: 5 }),\n];');
  });
});
