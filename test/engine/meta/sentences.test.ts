// Summaries the meta model reads are cut at sentence ends, never mid-word.
import { describe, expect, it } from 'vitest';
import { wholeSentences } from '../../../engine/meta/sentences.ts';

describe('wholeSentences', () => {
  it('keeps the sentences that fit, whole', () => {
    const text = 'Replace the blind ±1 neighbour expansion with speaker-aware expansion. Keep BM25 at k = 40. Then pack whole turns by date.';
    expect(wholeSentences(text, 80)).toBe('Replace the blind ±1 neighbour expansion with speaker-aware expansion.');
    expect(wholeSentences(text, 100)).toBe('Replace the blind ±1 neighbour expansion with speaker-aware expansion. Keep BM25 at k = 40.');
    expect(wholeSentences(text, 500)).toBe(text);
  });

  it('does not end a sentence at a decimal point, and folds white space', () => {
    expect(wholeSentences('Weight dense hits 0.5 and\nBM25 hits 1.0 in fusion. Drop the cap.', 50)).toBe('Weight dense hits 0.5 and BM25 hits 1.0 in fusion.');
  });

  it('keeps an over-long first sentence whole up to twice the limit, then cuts at a word and says so', () => {
    const long = `Use ${'many words '.repeat(10).trim()} now.`;
    expect(wholeSentences(long, 80)).toBe(long);
    const longer = `Use ${'many words '.repeat(30).trim()} now.`;
    const cut = wholeSentences(longer, 80);
    expect(cut.endsWith('words…') || cut.endsWith('many…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(161);
  });
});
