// A child's edits in a few words (kind and key) and the idea it shares with its siblings: what the viewer writes
// under each node and the CLI in its step lines, instead of the first 90 characters of the description.
import { describe, expect, it } from 'vitest';
import { differingPart, editLabel } from '../../../engine/meta/edit-label.ts';
import type { Edit, EditKind } from '../../../engine/meta/types.ts';

const crossover: Edit = { kind: 'design-into-pipeline', key: 'bm25', from: 'bm25', to: 'pipeline' };
const BASE =
  "crossover into a pipeline: bm25's way of finding units (whole steps found by BM25, shown under their episode) with automemo/lib's stages";

describe('an edit as its label', () => {
  it('says each kind of edit by its kind and key, not its prose', () => {
    const label = (kind: EditKind, key: string, from: number | string | boolean, to: number | string | boolean) =>
      editLabel([{ kind, key, from, to }]).label;
    expect(label('stage-insert', 'dedupe', '', 'dedupe({ similarity: 0.9 })')).toBe('insert dedupe');
    expect(label('stage-remove', 'mmrStage', 'mmrStage({ k: 60 })', '')).toBe('remove mmrStage');
    expect(label('stage-swap', 'rrfFuse', 'weightedFuse', 'rrfFuse')).toBe('fuse with rrfFuse');
    expect(label('crossover-stage', 'hopExpand', '', 'hopExpand({ seeds: 5 })')).toBe('crossover: take hopExpand');
    expect(label('route', 'time', '', 'timeBoost({ span: 1.5 })')).toBe('route time tasks to timeBoost');
    expect(label('store', 'units', "'steps'", "'windows'")).toBe("store units 'steps' → 'windows'");
    expect(label('stage-tune', 'hopExpand.per', 2, 3)).toBe('set hopExpand.per 2 → 3');
    expect(label('config', 'graph.maxUnits', 20, 30)).toBe('set graph.maxUnits 20 → 30');
    expect(label('design-into-pipeline', 'trajectory-retrieval', 'trajectory-retrieval', 'pipeline')).toBe(
      'crossover trajectory-retrieval → pipeline',
    );
    expect(label('initial-design', 'bm25', '', 'bm25')).toBe('design bm25');
    // A long value is cut: the label stays a few words.
    expect(label('config', 'retrieval.template', 'a', 'x'.repeat(500)).length).toBeLessThan(60);
  });

  it('groups the tails of one crossover as one idea, each child saying its tail', () => {
    const alone = editLabel([crossover]);
    const tail = editLabel([
      crossover,
      { kind: 'stage-insert', key: 'prfQuery', from: '', to: 'prfQuery({ docs: 5 })' },
    ]);
    const other = editLabel([crossover, { kind: 'stage-tune', key: 'hopExpand.per', from: 2, to: 3 }]);
    expect(new Set([alone.group, tail.group, other.group]).size).toBe(1);
    expect(tail).toMatchObject({
      kind: 'crossover',
      key: 'design:bm25',
      groupLabel: 'crossover bm25 → pipeline',
      label: 'crossover bm25 → pipeline, then insert prfQuery',
      tail: 'insert prfQuery',
    });
    expect(alone.tail).toBe('the crossover alone');
    expect(other.tail).toBe('set hopExpand.per 2 → 3');
  });

  it('groups one setting moved to different values, and keeps apart what differs in kind or key', () => {
    const up = editLabel([{ kind: 'stage-tune', key: 'hopExpand.per', from: 2, to: 3 }]);
    const down = editLabel([{ kind: 'stage-tune', key: 'hopExpand.per', from: 2, to: 1 }]);
    expect(up.group).toBe(down.group);
    expect([up.tail, down.tail]).toEqual(['2 → 3', '2 → 1']);
    expect(editLabel([{ kind: 'stage-tune', key: 'hopExpand.seeds', from: 5, to: 9 }]).group).not.toBe(up.group);
    expect(editLabel([{ kind: 'stage-insert', key: 'hopExpand', from: '', to: 'hopExpand()' }]).group).not.toBe(
      editLabel([{ kind: 'stage-remove', key: 'hopExpand', from: 'hopExpand()', to: '' }]).group,
    );
  });

  it("gives a child without edits (a model's rewrite) the first words of its description and a group of its own", () => {
    const a = editLabel(undefined, 'Index sessions by date. Then rank by recency.', 'n1');
    expect(a).toMatchObject({ kind: 'rewrite', label: 'Index sessions by date' });
    expect(editLabel(undefined, 'Index sessions by date.', 'n2').group).not.toBe(a.group);
    // A model's typed edit (kind 'model') reads the same: its description, a group of its own.
    const m = editLabel(
      [{ kind: 'model', key: 'program', from: '', to: 'Index sessions by date. Then rank.' }],
      undefined,
      'n3',
    );
    expect(m).toMatchObject({ kind: 'rewrite', label: 'Index sessions by date', group: 'rewrite:n3' });
  });
});

describe('the part of a description that differs', () => {
  it('starts where a child parts from its siblings, at the start of that clause', () => {
    const first = `${BASE}, then insert: insert prfQuery({ docs: 5, terms: 6, weight: 0.5 }) (of 9 failed tasks, 0 had the answer)`;
    const second = `${BASE}, then insert: insert graphExpand({ seeds: 5, per: 3 }) (of 9 failed tasks, 0 had the answer)`;
    expect(differingPart(first, [BASE])).toBe(
      '…then insert: insert prfQuery({ docs: 5, terms: 6, weight: 0.5 }) (of 9 failed tasks, 0 had the answer)',
    );
    expect(differingPart(second, [BASE, first])).toMatch(/^…then insert: insert graphExpand\(/);
  });

  it('gives a description that shares little from its start, clipped', () => {
    expect(differingPart('insert: insert dedupe (why)', ['store: units units (why)'])).toBe(
      'insert: insert dedupe (why)',
    );
    const long = differingPart(`tune: ${'k '.repeat(200)}`, [], 120);
    expect(long).toHaveLength(120);
    expect(long.endsWith('…')).toBe(true);
  });
});
