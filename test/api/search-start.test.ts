// What a search says before step 0 and where it started: its validation plan (with a plain warning when validation
// is small), the screen of standard designs that seeds it by default, and ties named as ties, never a win.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { search, type SearchStart } from '../../api/index.ts';
import { STANDARD_DESIGNS } from '../../memo-programs/registry.ts';
import { readJournal } from '../../run-store/journal.ts';
import { repoRoot } from '../../foundation/paths.ts';

const dir = mkdtempSync(join(tmpdir(), 'api-search-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const vaults = join(repoRoot, 'examples', 'vault-env', 'env.ts');

describe('a search on a small benchmark', () => {
  it('warns before step 0 that validation is small, and names the programs its pick is tied with', async () => {
    let start: SearchStart | undefined;
    const s = await search({ env: vaults, out: join(dir, 'tied'), budget: 1, seeds: ['bm25', 'trajectory-retrieval'], meta: 'offline', test: false, onStart: (x) => (start = x) });
    // The vault benchmark states its split: 16 validation tasks.
    expect(start?.validation).toMatchObject({ tasks: 16, perEvaluation: 16, samples: 1 });
    expect(start?.validation.warning).toMatch(/only 16 tasks/);
    expect(s.validation.warning).toBe(start?.validation.warning);
    // Both seeds open every validation vault at the first try: neither is better, and the summary says so.
    expect(s.seeds.map((x) => x.validation)).toEqual([1, 1]);
    expect(s.tie?.nodes.map((n) => n.id)).toContain(s.winner.id === 'seed-bm25' ? 'seed-trajectory-retrieval' : 'seed-bm25');
    expect(s.tie?.note).toMatch(/cannot be told apart on validation/);
    const final = readJournal(join(s.runFolder, 'journal.jsonl')).events.find((e) => e.type === 'final');
    expect(final?.type === 'final' && final.tied).toEqual(s.tie?.nodes.map((n) => n.id));
  }, 120_000);

  it('screens the standard designs at step 0 by default and seeds the tree with the best three, scoring none twice', async () => {
    const s = await search({ env: vaults, out: join(dir, 'auto'), budget: 0, meta: 'offline', test: false });
    expect(s.screen?.map((d) => d.design).sort()).toEqual([...STANDARD_DESIGNS].sort());
    const kept = s.screen?.filter((d) => d.kept) ?? [];
    expect(kept).toHaveLength(3);
    expect(s.seeds.map((x) => x.id).sort()).toEqual(kept.map((d) => d.node).sort());
    // The kept are the best: no design left out scored above one kept.
    const worstKept = Math.min(...kept.map((d) => d.validation ?? -1));
    for (const d of s.screen ?? []) if (!d.kept) expect(d.validation ?? -1).toBeLessThanOrEqual(worstKept);
    const events = readJournal(join(s.runFolder, 'journal.jsonl')).events;
    const screen = events.find((e) => e.type === 'screen');
    expect(screen?.type === 'screen' && screen.results).toHaveLength(STANDARD_DESIGNS.length);
    for (const d of kept) {
      const evaluations = events.filter((e) => e.type === 'evaluation' && e.node === d.node);
      // A kept design's screen evaluation is its first evaluation: one line, the screen's evidence.
      expect(evaluations).toHaveLength(1);
      expect(evaluations[0]?.type === 'evaluation' && evaluations[0].evidence).toBe(`evidence/${d.node}/train-0`);
    }
    for (const d of s.screen ?? []) expect(existsSync(join(s.runFolder, 'evidence', d.node, 'train-0', 'tasks.jsonl'))).toBe(true);
    expect(s.fullEvaluations).toBe(1 + kept.length);
  }, 180_000);
});
