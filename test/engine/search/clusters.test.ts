// CluE's clusterings in the journal: a resumed search carries the pool on from the last completed step, a step
// that never finished leaves no trace in it, and the viewer's step log shows the groups and the notes.
import { describe, expect, it } from 'vitest';
import { EventSchema, type JournalEvent } from '../../../engine/search/journal-events.ts';
import { replay } from '../../../engine/search/replay.ts';
import { stepDetail } from '../../../viewer/node-detail.ts';

let t = 0;
const ev = (e: Record<string, unknown>): JournalEvent => EventSchema.parse({ t: t++, ...e });
const start = ev({ type: 'start', resumed: false, pid: 1 });
const root = ev({
  type: 'node',
  step: 0,
  id: 'root',
  parent: null,
  kind: 'root',
  dir: 'programs/root',
  hash: 'h',
  parentSnapshot: null,
});
const clusters = (
  step: number,
  source: 'model' | 'metadata',
  assignment: Record<string, string>,
  defs: [string, string][],
  summaries: Record<string, string> = {},
) =>
  ev({
    type: 'clusters',
    step,
    node: 'root',
    source,
    notes: source === 'metadata' ? ['clustering failed, metadata groups kept: 500'] : [],
    clusters: defs.map(([id, label]) => ({ id, label, description: '', tasks: 2 })),
    assignment,
    summaries,
  });
const done = (step: number) => ev({ type: 'step-done', step });

describe('clusterings in the journal', () => {
  it('rebuilds the pool from the last completed model clustering, with every summary written so far', () => {
    const events = [
      start,
      root,
      done(0),
      clusters(
        1,
        'model',
        { a: 'when', b: 'when', c: 'likes', d: 'likes' },
        [
          ['when', 'dates'],
          ['likes', 'hobbies'],
        ],
        { a: 's-a', b: 's-b', c: 's-c', d: 's-d' },
      ),
      done(1),
      clusters(2, 'metadata', { a: 'temporal', b: 'temporal' }, []),
      done(2),
      clusters(3, 'model', { a: 'when', b: 'when', c: 'when', d: 'when' }, [['when', 'anything with a date']], {}),
    ];
    const r = replay(events);
    expect(r.clusterings.map((c) => c.step)).toEqual([1, 2]);
    expect(r.cluePool.clusters).toEqual([
      { id: 'when', label: 'dates', description: '' },
      { id: 'likes', label: 'hobbies', description: '' },
    ]);
    expect(r.cluePool.summaries).toEqual({ a: 's-a', b: 's-b', c: 's-c', d: 's-d' });
    expect(r.cluePool.assignment).toEqual({ a: 'when', b: 'when', c: 'likes', d: 'likes' });
  });

  it("shows each step's groups by label, and the reason when metadata groups stood in", () => {
    const events = [
      clusters(1, 'model', { a: 'when', b: 'when', c: 'likes' }, [
        ['when', 'dates'],
        ['likes', 'hobbies'],
      ]),
      clusters(2, 'metadata', { a: 'temporal', b: 'single-hop' }, []),
    ];
    expect(stepDetail(events, 1).clustering).toMatchObject({
      source: 'model',
      groups: [
        { group: 'dates', tasks: ['a', 'b'] },
        { group: 'hobbies', tasks: ['c'] },
      ],
    });
    expect(stepDetail(events, 2).clustering).toMatchObject({
      source: 'metadata',
      notes: ['clustering failed, metadata groups kept: 500'],
      groups: [{ group: 'temporal' }, { group: 'single-hop' }],
    });
    expect(stepDetail(events, 3).clustering).toBeUndefined();
  });

  it('refuses a clustering line whose cluster id is not a safe name', () => {
    expect(() => clusters(1, 'model', {}, [['../x', 'bad']])).toThrow();
  });
});
