// A task's ground truth as the page shows it beside the payload: the environment's explanation read into its parts,
// and where the payload holds the gold answers and the evidence.
import { describe, expect, it } from 'vitest';
import { explainPayload, explanationOf } from '../../viewer/task-explanation.ts';

describe('a task explanation', () => {
  it('reads LoCoMo\'s and the data format\'s explanations into question, gold, choices and evidence with ids', () => {
    const locomo = explanationOf('question (single-hop): When did Caroline go to the LGBTQ support group? | gold answer: 7 May 2023 | evidence turns: [D1:3, session 1] Caroline: I went to a LGBTQ support group yesterday || [D1:5, session 1] Melanie: That is great');
    expect(locomo).toMatchObject({ question: 'When did Caroline go to the LGBTQ support group?', gold: ['7 May 2023'], choices: [], evidence: [{ id: 'D1:3', text: 'I went to a LGBTQ support group yesterday' }, { id: 'D1:5', text: 'That is great' }] });
    const data = explanationOf('question (facts): Which car did Tom buy? | gold: C | Volvo wagon | choices: A) a bike; B) a van; C) a Volvo wagon | evidence turns: [d2:4, session 2 (9 January 2023)] Tom: we bought the Volvo wagon');
    expect(data).toMatchObject({ gold: ['C', 'Volvo wagon'], choices: ['A) a bike', 'B) a van', 'C) a Volvo wagon'], evidence: [{ id: 'd2:4', text: 'we bought the Volvo wagon' }] });
    // A module's own words: what it quotes is the answer.
    expect(explanationOf('repair of mk1 machines here: "cut power, swap fuse"')?.gold).toEqual(['cut power, swap fuse']);
    expect(explanationOf(undefined)).toBeUndefined();
  });

  it('finds the evidence and the gold in the whole payload and marks them in the shown part, evidence first', () => {
    const ex = explanationOf('question: Q? | gold: Volvo | evidence turns: [d1:1] we bought the Volvo wagon || [d1:2] it is blue') as NonNullable<ReturnType<typeof explanationOf>>;
    const whole = 'Tom: We bought   the VOLVO wagon.\nMia: nice\n... it is blue';
    const shown = whole.slice(0, 40);
    const r = explainPayload(ex, whole, shown);
    expect(r.evidenceFound).toEqual([true, true]);
    expect(r.goldFound).toEqual([true]);
    // Marked where the shown text holds them: the turn (white space and case aside), its gold answer inside it not twice.
    expect(r.marks).toEqual([{ start: 5, end: 32, kind: 'evidence', index: 0 }]);
    expect(shown.slice(5, 32)).toBe('We bought   the VOLVO wagon');
  });

  it('takes hostile text as text: pattern characters, a one-letter gold, an overlong explanation', () => {
    const ex = explanationOf(`gold: a.*(b | evidence turns: [x] (.*)+$ || [y] ${'z'.repeat(5000)}`) as NonNullable<ReturnType<typeof explanationOf>>;
    const r = explainPayload(ex, 'has a.*(b and (.*)+$ in it');
    expect(r.goldFound).toEqual([true]);
    expect(r.evidenceFound).toEqual([true, false]);
    expect(ex.evidence[1]?.text.length).toBeLessThanOrEqual(600);
    // Too short to mean anything alone: never looked for.
    expect(explainPayload(explanationOf('gold: C') as NonNullable<ReturnType<typeof explanationOf>>, 'C C C').goldFound).toEqual([false]);
  });
});
