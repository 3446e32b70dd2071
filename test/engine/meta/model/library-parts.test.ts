// What a prompt shows of automemo/lib: every module and stage on one line each in the part every prompt shares, and
// the declarations the program of the request imports (read from its import declarations) in full, after it. A
// stage the parent uses is shown in full; one it does not use only by its line; the shared part is the same text for
// two parents with different imports; nothing shown in full names a lib type it does not show.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../../engine/meta/evidence.ts';
import { context } from '../../../../engine/meta/model/prompt-parts.ts';
import { proposalRequest, repairRequest } from '../../../../engine/meta/model/requests.ts';
import type { ModelParent, ProgramFiles } from '../../../../engine/meta/types.ts';
import { libModel } from '../../../../memo-programs/lib-declarations.ts';
import { libImportsOf, withNeighbours } from '../../../../memo-programs/lib-usage.ts';
import type { QuickExamReport } from '../../../../sandbox/quick-exam.ts';
import { parentContext, scoredTask } from '../../../support/parent-context.ts';

const pipeline: ProgramFiles = { 'index.ts': readFileSync('memo-programs/seeds/pipeline.ts', 'utf8') };
const helpers: ProgramFiles = {
  'index.ts': [
    "import { defineMemo } from 'automemo/contract';",
    "import { Bm25Index as Index } from 'automemo/lib';",
    "import * as cos from 'automemo/lib/cosine';",
    "import { rank } from './rank.ts';",
    'export default defineMemo({ update() {}, retrieve() { return { text: rank(new Index(), cos.cosine([1], [1])), images: [] }; } });',
    '',
  ].join('\n'),
  'rank.ts':
    "export { timeBoost } from 'automemo/lib/time-focus';\nexport const rank = (_i: unknown, _c: number) => '';\n",
};
const groups: Cluster[] = [{ scenario: 'dates', tasks: 2, meanReward: 0.5, successes: [], failures: [] }];
const ctx = (node: string, files: ProgramFiles): ModelParent =>
  parentContext([scoredTask('a', 'dates', 0), scoredTask('b', 'dates', 1)], { node, files }) as ModelParent;
const proposal = (c: ModelParent) => proposalRequest(c, groups, '', '');

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** The full declarations a request shows (after the index), by the names it declares. */
function declaredInFull(prompt: string): Set<string> {
  const at = prompt.indexOf('The automemo/lib declarations');
  if (at < 0) return new Set();
  const block = prompt.slice(at, prompt.indexOf('\n```\n', at));
  return new Set([...block.matchAll(/^(?:function|class|interface|type|const) (\w+)/gm)].map((m) => m[1] as string));
}

describe('the automemo/lib parts of a prompt', () => {
  it("reads a program's lib imports from its import declarations, through re-exports, aliases, namespaces and files", () => {
    expect([...libImportsOf(pipeline)].sort()).toEqual([
      'diversity:capPerSource',
      'expansion:neighbourExpand',
      'fusion:rrfFuse',
      'packing:packWhole',
      'pipeline:runStages',
      'search-stages:bm25Stage',
      'search-stages:denseStage',
      'unit-store:UnitStore',
    ]);
    const used = libImportsOf(helpers);
    expect(used).toContain('bm25:Bm25Index');
    expect(used).toContain('time-focus:timeBoost');
    // A namespace import uses the whole module.
    for (const k of ['cosine:cosine', 'cosine:dot', 'cosine:centroid']) expect(used).toContain(k);
    // Text that only looks like an import is not one; a file that is not TypeScript is not read.
    expect(libImportsOf({ 'index.ts': 'const s = "import { dedupe } from \'automemo/lib/diversity\'";' }).size).toBe(0);
    expect(libImportsOf({ 'notes.md': "import { dedupe } from 'automemo/lib/diversity';" }).size).toBe(0);
  });

  it('shows a stage the parent uses in full, its close neighbours too, and any other stage only as its line', () => {
    const p = proposal(ctx('seed-pipeline', pipeline));
    const full = declaredInFull(p);
    // Used: the doc with its contract and the signature with its options.
    expect(p).toMatch(/\/\*\* Stage: BM25 over the units' words[^\n]*\n \* reads: queries, store\n \* writes: lists/);
    expect(p).toContain('function neighbourExpand(options?: {');
    for (const n of ['bm25Stage', 'rrfFuse', 'packWhole', 'runStages', 'UnitStore', 'RetrievalState', 'Hit', 'Stage'])
      expect(full, n).toContain(n);
    // The other fusions and expansions (same module) are close neighbours; a rescoring stage is not.
    for (const n of ['weightedFuse', 'maxFuse', 'hopExpand']) expect(full, n).toContain(n);
    expect(full).not.toContain('timeBoost');
    expect(p).not.toContain('function timeBoost(');
    expect(p).toMatch(/^timeBoost \(rescore, needs dialogue\): [^\n]+; span: float 1\.5/m);
    // A program with no lib import gets the index alone.
    const bare = proposal(ctx('seed-a', parentContext([]).files));
    expect(bare).not.toContain('The automemo/lib declarations');
    expect(bare).toContain('// automemo/lib/time-focus');
  });

  it('names no lib type in full that it does not show (the option machinery aside, which the stage list states)', () => {
    const { declarations } = libModel();
    for (const files of [pipeline, helpers]) {
      const shown = withNeighbours(libImportsOf(files));
      for (const k of shown)
        for (const r of declarations.get(k)?.refs ?? []) {
          const d = declarations.get(r);
          if (d && d.module !== 'tunables' && d.kind !== 'const') expect(shown, `${k} names ${r}`).toContain(r);
        }
      expect(declaredInFull(proposal(ctx('p', files)))).toEqual(
        new Set([...shown].map((k) => declarations.get(k)?.name)),
      );
    }
  });

  it('keeps the index and the instructions a stable prefix for two parents with different imports', () => {
    const a = proposal(ctx('seed-pipeline', pipeline));
    const b = proposal(ctx('n7', helpers));
    const shared = commonPrefix(a, b);
    // Everything up to the parent's own part is the same text: the context (with the lib index) and the instructions.
    expect(a.startsWith(context(ctx('seed-pipeline', pipeline)))).toBe(true);
    for (const marker of ['// automemo/lib/unit-store', 'timeBoost (rescore', 'Reply in two parts', '>>>>>>> REPLACE'])
      expect(a.indexOf(marker), marker).toBeLessThan(shared);
    expect(a.indexOf('The program (seed-pipeline')).toBeGreaterThan(shared);
  });

  it("starts a repair with the parent's lib declarations and adds only what the child imports beyond them", () => {
    const parent = ctx('n1', pipeline);
    const child = {
      'index.ts': pipeline['index.ts'].replace(
        "import { defineMemo } from 'automemo/contract';",
        "import { defineMemo } from 'automemo/contract';\nimport { timeBoost } from 'automemo/lib/time-focus';",
      ),
    };
    const report = {
      program: 'index.ts',
      passed: false,
      checks: [{ name: 'interface', ok: false, message: '1 type error', location: 'index.ts:2:10' }],
      failure: { check: 'interface', detail: '2:10 unused' },
    } as unknown as QuickExamReport;
    const r = repairRequest(parent, child, report);
    const head = proposal(parent);
    const lib = head.indexOf('The automemo/lib declarations the program of this request imports');
    const libEnd = head.indexOf('\n```\n', lib) + 4;
    expect(r).toContain(head.slice(lib, libEnd));
    expect(r).toContain('The automemo/lib declarations the child imports beyond those above');
    expect(r).toContain('function timeBoost(');
    expect(r.indexOf('function timeBoost(')).toBeGreaterThan(r.indexOf('function rrfFuse('));
  });
});
