import { describe, expect, it } from 'vitest';
import { asksLatest, asksWhen, namedSpan, preferLatest, recencyBoost, saysWhen, timeBoost } from '../../../memo-programs/lib/time-focus.ts';
import { initialState } from '../../../memo-programs/lib/retrieval-state.ts';
import { UnitStore } from '../../../memo-programs/lib/unit-store.ts';
import { clock, dialogue, question, stateFor } from '../../support/pipeline-store.ts';

describe('time focus', () => {
  it('reads the span a task names and whether it asks when', () => {
    expect(namedSpan('What happened in June 2023?', 0)).toEqual({ from: Date.UTC(2023, 5, 1), to: Date.UTC(2023, 6, 1) });
    expect(namedSpan('Where did she go in 2022?', 1)).toEqual({ from: Date.UTC(2022, 0, 1), to: Date.UTC(2023, 0, 1) + 86_400_000 });
    expect(namedSpan('What did she paint?', 35)).toBeUndefined();
    expect(asksWhen('When did Anna adopt a puppy?')).toBe(true);
    expect(asksWhen('What did Anna adopt?')).toBe(false);
    expect(saysWhen('I adopted a puppy yesterday.')).toBe(true);
    expect(saysWhen('I adopted a puppy.')).toBe(false);
  });

  it('boosts units from the named span, and units that say when for when-tasks', async () => {
    const state = await stateFor('What did Clara start in June 2023?');
    state.hits = [
      { label: 1, score: 1, via: 'a' },
      { label: 7, score: 0.8, via: 'a' },
    ];
    await timeBoost({ span: 1.5, spillDays: 0 })(state);
    expect(state.hits.map((h) => [h.label, h.score])).toEqual([
      [7, 0.8 * 1.5],
      [1, 1],
    ]);
    const when = await stateFor('When did Anna adopt Biscuit?');
    when.hits = [
      { label: 6, score: 1, via: 'a' },
      { label: 4, score: 0.9, via: 'a' },
    ];
    await timeBoost({ when: 1.3 })(when);
    expect(when.hits.map((h) => h.label)).toEqual([4, 6]);
  });

  it('recencyBoost puts the latest episode first for tasks that ask about the current state, and only for those', async () => {
    expect(asksLatest('Who waters the plants now?')).toBe(true);
    expect(asksLatest('Which version was deployed most recently?')).toBe(true);
    expect(asksLatest('Who waters the plants?')).toBe(false);
    // Label 1 is in the first session, label 6 in the second (a month later).
    const now = await stateFor('What is Biscuit doing now?');
    now.hits = [
      { label: 1, score: 1, via: 'a' },
      { label: 6, score: 0.8, via: 'a' },
    ];
    await recencyBoost({ weight: 0.5 })(now);
    expect(now.hits.map((h) => [h.label, h.score])).toEqual([
      [6, 0.8 * 1.5],
      [1, 1],
    ]);
    const plain = await stateFor('What is Biscuit doing?');
    plain.hits = [
      { label: 1, score: 1, via: 'a' },
      { label: 6, score: 0.8, via: 'a' },
    ];
    await recencyBoost({ weight: 0.5 })(plain);
    expect(plain.hits.map((h) => h.label)).toEqual([1, 6]);
    await recencyBoost({ weight: 0.5, when: 'always' })(plain);
    expect(plain.hits.map((h) => h.label)).toEqual([6, 1]);
  });
});

describe('the latest state of a fact', () => {
  it('scales down an older hit that says much the same as a later one, once', async () => {
    const store = new UnitStore({ index: 'bm25' });
    const ctx = clock();
    const says = [
      ['2023-01-05', 'Mia: I work at Larkfield Analytics as a data analyst.'],
      ['2023-04-05', 'Mia: I work at Tessellate as a data analyst now.'],
      ['2023-06-05', 'Mia: The weather is lovely today.'],
    ] as const;
    for (const [i, [date, text]] of says.entries()) {
      ctx.at = Date.parse(date);
      await store.add(dialogue(`S${i + 1}`, date, [['Mia', text.slice(5)]]), ctx);
    }
    const state = initialState(question('Where does Mia work?'), store, ctx);
    state.hits = [
      { label: 0, score: 1, via: 'a' },
      { label: 1, score: 0.9, via: 'a' },
      { label: 2, score: 0.8, via: 'a' },
    ];
    await preferLatest({ overlap: 0.4, decay: 0.5 })(state);
    expect(state.hits.map((h) => [h.label, h.score])).toEqual([
      [1, 0.9],
      [2, 0.8],
      [0, 0.5],
    ]);
  });
});
