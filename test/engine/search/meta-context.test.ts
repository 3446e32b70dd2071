// What the search tells the meta agent of the tree: the children already tried from a parent (valid ones with their
// paired delta and typed edits, failed ones with the check that stopped them, no-ops as failures of their own kind;
// descriptions cut at sentence ends), so a second child of the same parent gets
// a different prompt, and the best programs elsewhere (not the parent's own children) as inspirations.
import { describe, expect, it } from 'vitest';
import { inspirationsFor, triedFrom } from '../../../engine/search/meta-context.ts';
import { SearchTree, type TreeNode } from '../../../engine/search/tree.ts';
import type { Edit } from '../../../engine/meta/types.ts';

const edit = (key: string): Edit => ({ kind: 'stage-insert', key, from: '', to: `${key}()` });

const node = (id: string, parent: string | null, kind: TreeNode['kind'], step: number, scores: number[], description?: string): TreeNode => ({
  id,
  parent,
  kind,
  dir: `programs/${id}`,
  hash: id,
  step,
  parentSnapshot: null,
  scores,
  samples: scores.map((_, i) => i),
  ...(description ? { description, edits: [edit(description.split(' ')[0] as string)] } : {}),
});

function tree(): SearchTree {
  const t = new SearchTree();
  t.add(node('root', null, 'root', 0, [0]));
  t.add(node('seed-a', 'root', 'seed', 0, [0.6, 0.7]));
  t.add(node('n1', 'seed-a', 'child', 1, [0.8], 'fuse BM25 and dense'));
  t.add(node('n3', 'seed-a', 'child', 3, [], 'neighbour turns'));
  t.add(node('n4', 'n1', 'child', 4, [0.9, 0.85], 'compact dated lines'));
  t.failed.push({ parent: 'seed-a', step: 2, failure: { check: 'interface', detail: 'retrieve returns no text' }, attempts: 3 });
  t.noops.push({ parent: 'seed-a', step: 6, rule: 'same-program', reason: 'the same program as n1', description: 'fuse again', edits: [edit('fuse')] });
  return t;
}

describe('the tree as the meta agent sees it', () => {
  it('lists what was tried from a parent in step order, with edits, paired deltas and what stopped the failed ones', () => {
    expect(triedFrom(tree(), 'seed-a')).toEqual([
      { node: 'n1', step: 1, edits: [edit('fuse')], description: 'fuse BM25 and dense', delta: expect.closeTo(0.2, 10) },
      { node: 'step 2', step: 2, edits: [], failure: { check: 'interface', detail: 'retrieve returns no text' } },
      { node: 'n3', step: 3, edits: [edit('neighbour')], description: 'neighbour turns' },
      { node: 'step 6', step: 6, edits: [edit('fuse')], description: 'fuse again', failure: { check: 'no-op', detail: 'the same program as n1' } },
    ]);
    expect(triedFrom(tree(), 'n4')).toEqual([]);
  });

  it('cuts a long change at a sentence end, never mid-word', () => {
    const t = tree();
    const long = `Replace the blind neighbour expansion with speaker-aware expansion. ${'Then keep every turn of the speaker the question names, and pack them by date. '.repeat(6)}`;
    t.add(node('n5', 'seed-a', 'child', 5, [], long));
    const change = triedFrom(t, 'seed-a').find((x) => x.node === 'n5')?.description ?? '';
    expect(change.length).toBeLessThanOrEqual(400);
    expect(change.startsWith('Replace the blind neighbour expansion with speaker-aware expansion. Then keep')).toBe(true);
    expect(change.endsWith('by date.')).toBe(true);
  });

  it('offers the best programs other than the parent and its own children (never the root) as inspirations', () => {
    expect(inspirationsFor(tree(), 'n1').map((x) => x.node)).toEqual(['seed-a']);
    expect(inspirationsFor(tree(), 'seed-a')[0]).toEqual({ node: 'n4', q: 0.875, evaluations: 2, edits: [edit('compact')], description: 'compact dated lines' });
    // n1 (0.8) is seed-a's child: it is among what was tried from seed-a, with its delta, not an inspiration.
    expect(inspirationsFor(tree(), 'seed-a').map((x) => x.node)).toEqual(['n4']);
  });
});
