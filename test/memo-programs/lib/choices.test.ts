// A task with choices is searched for each choice's evidence, and what is found for each is shown — memory, never a
// choice named or ranked by the program.
import { describe, expect, it } from 'vitest';
import { choiceEvidence, choiceQueries, taskChoices } from '../../../memo-programs/lib/choices.ts';
import { packWhole } from '../../../memo-programs/lib/packing.ts';
import { bm25Stage } from '../../../memo-programs/lib/search-stages.ts';
import { rrfFuse } from '../../../memo-programs/lib/fusion.ts';
import { stateFor } from '../../support/pipeline-store.ts';

const withChoices = async (q: string, choices: unknown[]) => {
  const state = await stateFor(q);
  state.task = { ...state.task, meta: { choices: choices as string[] } };
  return state;
};

describe('choices', () => {
  it('reads meta.choices within bounds: at most 26, each cut to 500 characters, numbers as text, blanks dropped', () => {
    expect(taskChoices({ choices: ['a', 2, '', 'x'.repeat(900)] })).toEqual(['a', '2', 'x'.repeat(500)]);
    expect(taskChoices({ choices: Array.from({ length: 40 }, (_, i) => `c${i}`) })).toHaveLength(26);
    expect(taskChoices({ choices: 'not a list' })).toEqual([]);
    expect(taskChoices(undefined)).toEqual([]);
  });

  it('adds one query per choice, so each choice\u2019s evidence is searched', async () => {
    const state = await withChoices('What did Anna adopt?', ['a kitten', 'a puppy named Biscuit']);
    await choiceQueries({ weight: 0.4 })(state);
    expect(state.queries.map((q) => [q.origin, q.text, q.weight])).toEqual([
      ['task', 'What did Anna adopt?', 1],
      ['choice:0', 'What did Anna adopt? a kitten', 0.4],
      ['choice:1', 'What did Anna adopt? a puppy named Biscuit', 0.4],
    ]);
    const none = await stateFor('What did Anna adopt?');
    await choiceQueries()(none);
    expect(none.queries).toHaveLength(1);
  });

  it("brings each choice's best evidence to the front and shows the units as stored", async () => {
    const state = await withChoices('Who went where last weekend?', ['black bear', 'pottery class']);
    await choiceQueries()(state);
    await bm25Stage({ k: 20 })(state);
    await rrfFuse()(state);
    await choiceEvidence()(state);
    const front = state.hits.slice(0, 2).map((h) => state.store.units[h.label]?.text);
    expect(front).toEqual(expect.arrayContaining(['Ben: We saw a black bear crossing the trail at dawn.', 'Ben: Clara started a pottery class in June.']));
    await packWhole({ maxUnits: 2 })(state);
    // The payload is memory: the two turns under their dates, no choice named on its own or marked.
    expect(state.payload?.text).toBe(['[8 May 2023]', 'Ben: We saw a black bear crossing the trail at dawn.', '[20 June 2023]', 'Ben: Clara started a pottery class in June.'].join('\n'));
  });
});
