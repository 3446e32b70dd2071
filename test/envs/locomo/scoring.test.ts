import { describe, expect, it } from 'vitest';
import { evidenceRecall, PayloadCoverage } from '../../../envs/scoring/evidence-recall.ts';
import { locomoScore, normalizeAnswer, tokenF1 } from '../../../envs/locomo/f1.ts';

const turn = 'I went to the LGBTQ support group yesterday and it was so powerful, the stories really inspired me.';

describe('evidence recall', () => {
  it('covers a turn whose text appears, folding case and white space', () => {
    expect(new PayloadCoverage(`notes:\n${turn.toUpperCase().replace(/ /g, '   ')}\nmore`).covers(turn)).toBe(true);
  });

  it('covers a turn when 70% of its content words are close together in one paragraph', () => {
    // content words: went lgbtq support group yesterday powerful stories inspired (8) -> need 6
    const paraphrase = 'Caroline went to an LGBTQ support group; the stories inspired her and it was powerful.';
    expect(new PayloadCoverage(paraphrase).covers(turn)).toBe(true);
    const fewer = 'Caroline went to a support group.';
    expect(new PayloadCoverage(fewer).covers(turn)).toBe(false);
  });

  it('does not count words spread across paragraphs or a long word soup', () => {
    const split = 'went LGBTQ support\n\ngroup yesterday powerful stories inspired';
    expect(new PayloadCoverage(split).covers(turn)).toBe(false);
    const soup = `went LGBTQ support ${'filler '.repeat(80)} group yesterday powerful stories inspired`;
    expect(new PayloadCoverage(soup).covers(turn)).toBe(false);
  });

  it('counts short turns only by their text, and never by turn ids', () => {
    expect(new PayloadCoverage('Thanks, Mel! great').covers('Thanks, Mel!')).toBe(true);
    expect(new PayloadCoverage('Mel thanks').covers('Thanks, Mel!')).toBe(false);
    const r = evidenceRecall('D1:3 D1:5 [D1:3]', [
      { id: 'D1:3', text: turn },
      { id: 'D1:5', text: 'The transgender stories were so inspiring! I was so happy and thankful for all the support.' },
    ]);
    expect(r).toEqual({ recall: 0, covered: [], missing: ['D1:3', 'D1:5'] });
  });

  it('is the share of evidence turns covered', () => {
    const r = evidenceRecall(turn, [
      { id: 'a', text: turn },
      { id: 'b', text: 'Something else entirely about pottery and painting classes in town.' },
    ]);
    expect(r.recall).toBe(0.5);
    expect(r.covered).toEqual(['a']);
  });
});

describe('LoCoMo F1', () => {
  it('normalises like the benchmark: commas, punctuation, articles and "and" removed', () => {
    expect(normalizeAnswer('The Adoption, Agencies and a Dog!')).toBe('adoption agencies dog');
  });

  it('uses Porter-stemmed token F1', () => {
    expect(tokenF1('adoption agencies', 'Adoption agency')).toBe(1);
    // 1 of 2 predicted, 1 of 1 gold: P 0.5, R 1, F1 0.667
    expect(tokenF1('7 May', '7')).toBeCloseTo(2 / 3, 5);
    expect(tokenF1('nothing', 'something')).toBe(0);
  });

  it('applies the per-category rules', () => {
    // multi-hop: mean over gold parts of the best match among predicted parts
    // parts: psychology = 1; counseling vs counseling certification = P 1, R 0.5, F1 2/3
    expect(locomoScore('psychology, counseling', 'Psychology, counseling certification', 1)).toBeCloseTo((1 + 2 / 3) / 2, 5);
    // open-domain: gold up to the first ';'
    expect(locomoScore('likely no', 'Likely no; she would not', 3)).toBe(1);
    // adversarial: 1 only for an explicit "not mentioned" / "no information available"
    expect(locomoScore('Not mentioned in the conversation', 'self-care is important', 5)).toBe(1);
    expect(locomoScore('self-care is important', 'self-care is important', 5)).toBe(0);
    expect(locomoScore('7 May 2023', '7 May 2023', 2)).toBe(1);
  });
});
