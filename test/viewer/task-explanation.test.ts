// A task's ground truth as the page shows it beside the payload: the environment's typed explanation in its parts,
// and where the payload holds the gold answers and the evidence.
import { describe, expect, it } from 'vitest';
import { explainPayload, explanationOf } from '../../viewer/task-explanation.ts';

describe('a task explanation', () => {
  it('shows question, gold, lettered choices and evidence with ids, and the whole in words', () => {
    const data = explanationOf({
      question: 'Which car did Tom buy?',
      gold: ['C', 'Volvo wagon'],
      choices: [
        { letter: 'A', text: 'a bike', gold: false },
        { letter: 'B', text: 'a van', gold: false },
        { letter: 'C', text: 'a Volvo wagon', gold: true },
      ],
      evidence: [{ id: 'd2:4', text: 'we bought the Volvo wagon', session: 2, speaker: 'Tom' }],
    });
    expect(data).toMatchObject({
      question: 'Which car did Tom buy?',
      gold: ['C', 'Volvo wagon'],
      choices: ['A. a bike', 'B. a van', 'C. a Volvo wagon (gold)'],
      evidence: [{ id: 'd2:4', text: 'we bought the Volvo wagon' }],
    });
    expect(data?.text).toContain('Volvo wagon');
    expect(explanationOf(undefined)).toBeUndefined();
  });

  it('finds the evidence and the gold in the whole payload and marks them in the shown part, evidence first', () => {
    const ex = explanationOf({
      question: 'Q?',
      gold: ['Volvo'],
      evidence: [
        { id: 'd1:1', text: 'we bought the Volvo wagon' },
        { id: 'd1:2', text: 'it is blue' },
      ],
    }) as NonNullable<ReturnType<typeof explanationOf>>;
    const whole = 'Tom: We bought   the VOLVO wagon.\nMia: nice\n... it is blue';
    const shown = whole.slice(0, 40);
    const r = explainPayload(ex, whole, shown);
    expect(r.evidenceFound).toEqual([true, true]);
    expect(r.goldFound).toEqual([true]);
    // Marked where the shown text holds them: the turn (white space and case aside), its gold answer inside it not twice.
    expect(r.marks).toEqual([{ start: 5, end: 32, kind: 'evidence', index: 0 }]);
    expect(shown.slice(5, 32)).toBe('We bought   the VOLVO wagon');
  });

  it('takes hostile text as text: pattern characters, a one-letter gold, an overlong record', () => {
    const ex = explanationOf({
      gold: ['a.*(b'],
      evidence: [
        { id: 'x', text: '(.*)+$' },
        { id: 'y', text: 'z'.repeat(5000) },
      ],
    }) as NonNullable<ReturnType<typeof explanationOf>>;
    const r = explainPayload(ex, 'has a.*(b and (.*)+$ in it');
    expect(r.goldFound).toEqual([true]);
    expect(r.evidenceFound).toEqual([true, false]);
    expect(ex.evidence[1]?.text.length).toBeLessThanOrEqual(600);
    // Too short to mean anything alone: never looked for.
    expect(
      explainPayload(explanationOf({ gold: ['C'] }) as NonNullable<ReturnType<typeof explanationOf>>, 'C C C')
        .goldFound,
    ).toEqual([false]);
  });
});
