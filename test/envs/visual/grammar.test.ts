import { describe, expect, it } from 'vitest';
import { checkAnswer, normalizeText, parseNumber } from '../../../envs/visual/check.ts';
import { call, parseAnswer, parseBox, parseCall } from '../../../envs/visual/tools/grammar.ts';

const KNOWN = new Set(['zoom', 'ocr', 'objects', 'visit']);

describe('tool-call grammar', () => {
  it('round-trips calls with boxes, arguments and quoted words', () => {
    const line = call('objects', [10, 20, 500, 600], { color: 'red', 'left-of': 'green square' });
    expect(line).toBe('objects [10,20,500,600] color=red left-of="green square"');
    expect(parseCall(line, KNOWN)).toEqual({ name: 'objects', box: [10, 20, 500, 600], args: { color: 'red', 'left-of': 'green square' }, words: [] });
  });

  it('reads calls out of the shapes memory programs and models write', () => {
    for (const line of ['  3. ocr [1,2,300,400] -> "S/N 4F7"', 'Action: ocr [1, 2, 300, 400]', '<tool>ocr [1,2,300,400]</tool>', 'ocr([1,2,300,400])', '- ocr [1,2,300,400] [error: box too small]']) {
      expect(parseCall(line, KNOWN), line).toMatchObject({ name: 'ocr', box: [1, 2, 300, 400] });
    }
    expect(parseCall('visit acme-corp', KNOWN)).toMatchObject({ name: 'visit', words: ['acme-corp'] });
    expect(parseCall('The print is small: read one panel', KNOWN)).toBeUndefined();
    expect(parseCall('crop [1,2,3,4]', KNOWN)).toBeUndefined();
  });

  it('clamps and orders boxes, rejects malformed ones', () => {
    expect(parseBox('[900, -5, 100, 1200]')).toEqual([100, 0, 900, 999]);
    expect(parseBox('[1,2,3]')).toBeUndefined();
    expect(parseCall('ocr [a,b,c,d]', KNOWN)).toBeUndefined();
  });

  it('takes the last <answer> of a reply', () => {
    expect(parseAnswer('maybe <answer>3</answer> no: <answer> 4 </answer>')).toBe('4');
    expect(parseAnswer('no answer here')).toBeUndefined();
  });
});

describe('exact checkers', () => {
  it('normalizes text: case, spaces, surrounding punctuation, aliases', () => {
    expect(normalizeText('  "S / N 4F7-2K9C." ')).toBe('s/n 4f7-2k9c');
    expect(checkAnswer({ kind: 'text', value: '4F7-2K9C', aliases: ['S/N 4F7-2K9C'] }, 's/n 4f7-2k9c').correct).toBe(true);
    expect(checkAnswer({ kind: 'text', value: '4F7-2K9C' }, '4F7-2K9G')).toMatchObject({ correct: false, note: expect.stringContaining('expected') });
  });

  it('reads numbers with separators and suffixes, within a tolerance', () => {
    expect(parseNumber('about 37,500 units')).toBe(37500);
    expect(parseNumber('1.5k')).toBe(1500);
    expect(parseNumber('12%')).toBe(12);
    expect(checkAnswer({ kind: 'number', value: 100, tolerance: 0.02 }, '101.9').correct).toBe(true);
    expect(checkAnswer({ kind: 'number', value: 100, tolerance: 0.02 }, '102.5').correct).toBe(false);
    expect(checkAnswer({ kind: 'number', value: 7, absolute: 0 }, 'seven').correct).toBe(false);
  });

  it('checks letters and says what was missing', () => {
    expect(checkAnswer({ kind: 'letter', value: 'C' }, '(c) the third one').correct).toBe(true);
    expect(checkAnswer({ kind: 'letter', value: 'C' }, 'D').correct).toBe(false);
    expect(checkAnswer({ kind: 'text', value: 'x' }, '  ')).toEqual({ correct: false, note: 'no answer' });
  });
});
