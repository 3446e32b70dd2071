// What failed tasks missed, read from pipeline payload metadata and the environment's explanation of each task.
import { describe, expect, it } from 'vitest';
import type { Explanation } from '../../../../engine/environment/contract.ts';
import type { EvaluationResult } from '../../../../engine/evaluate/evaluate.ts';
import { analyseMisses, failedKind } from '../../../../engine/meta/offline/miss-analysis.ts';

const task = (taskId: string, reward: number, scenario = 's') => ({ taskId, reward, scenario }) as EvaluationResult['tasks'][number];

describe('miss analysis', () => {
  const evaluation = { tasks: [task('a', 0), task('b', 0.5), task('c', 1), task('d', 0, 'other'), task('e', 0)] } as EvaluationResult;
  const at = (id: string, text = '...') => ({ id, text });
  const explain = (id: string): Explanation | undefined =>
    ({
      a: { question: 'When did Anna move?', gold: ['May'], evidence: [at('D1:4'), at('D2:10')] },
      b: { question: 'What do Anna and Clara like?', gold: [], evidence: [at('D3:7')] },
      d: { question: 'Why?', gold: [], evidence: [at('D9:1')] },
      e: { question: 'What?', gold: [], evidence: [at('D1:44', 'x')] },
    })[id];
  const payloadMetadata = new Map<string, unknown>([
    ['a', { units: ['D1:5', 'D4:1'], cut: ['D2:10'] }],
    ['b', { units: ['D3:70'], cut: [] }],
    ['d', { units: ['D9:1'] }],
    ['e', { units: 'not a list', cut: [] }],
  ]);

  it('sorts gold units into cut, next to a shown unit, and never found; counts failed kinds', () => {
    const r = analyseMisses({ evaluation, explain, payloadMetadata });
    expect(r.failed).toBe(4);
    expect(r.traced).toBe(3);
    // a: D1:4 is next to the shown D1:5, D2:10 was cut; b: D3:7 is not D3:70's neighbour; d: its gold was shown.
    expect(r.misses).toEqual({ cut: 1, neighbour: 1, unseen: 1 });
    // None found one of its facts and missed another (a's two were both missed).
    expect(r.split).toBe(0);
    expect(r.kinds).toEqual({ time: 1, entities: 1, count: 0, reason: 1, other: 1 });
  });

  it('counts a task that found one of its facts and missed another as split (a second hop would reach it)', () => {
    const ev = { tasks: [task('h', 0.5)] } as EvaluationResult;
    const ex = (): Explanation => ({ question: 'Where is the tool Anna uses kept?', gold: [], evidence: [at('D1:2'), at('D5:3')] });
    const r = analyseMisses({ evaluation: ev, explain: ex, payloadMetadata: new Map([['h', { units: ['D1:2', 'D3:9'] }]]) });
    expect(r).toMatchObject({ traced: 1, split: 1, misses: { unseen: 1 } });
  });

  it('looks at one scenario when asked', () => {
    expect(analyseMisses({ evaluation, explain, payloadMetadata }, 'other')).toMatchObject({ failed: 1, traced: 1, misses: { cut: 0, neighbour: 0, unseen: 0 } });
  });

  it('reads task kinds without taking a question word for a name', () => {
    expect(failedKind('What did Anna say about Clara?')).toBe('entities');
    expect(failedKind('What did Anna say?')).toBe('other');
    expect(failedKind('How many dogs does Anna have?')).toBe('count');
  });
});
