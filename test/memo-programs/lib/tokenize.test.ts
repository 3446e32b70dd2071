import { describe, expect, it } from 'vitest';
import { contentTokens, tokenize } from 'automemo/lib';

describe('tokenize', () => {
  it('splits English on punctuation and lower-cases', () => {
    expect(tokenize("Hello, world! It's GPT-4o (2023).")).toEqual(['hello', 'world', 'it', 's', 'gpt', '4o', '2023']);
  });

  it('keeps accented letters and combining marks inside words', () => {
    expect(tokenize('Naïve café — Ünïcödé')).toEqual(['naïve', 'café', 'ünïcödé']);
    // Devanagari vowel signs are combining marks (\p{M}); the word must not break at them.
    expect(tokenize('नमस्ते दुनिया')).toEqual(['नमस्ते', 'दुनिया']);
  });

  it('keeps words of other spaced scripts', () => {
    expect(tokenize('Привет мир')).toEqual(['привет', 'мир']);
    expect(tokenize('مرحبا بالعالم')).toEqual(['مرحبا', 'بالعالم']);
    expect(tokenize('Γειά σου κόσμε')).toEqual(['γειά', 'σου', 'κόσμε']);
  });

  it('gives one token per character in scripts written without spaces', () => {
    expect(tokenize('我喜欢猫')).toEqual(['我', '喜', '欢', '猫']);
    expect(tokenize('東京タワーabc')).toEqual(['東', '京', 'タ', 'ワ', 'ー', 'abc']);
  });

  it('folds full-width forms (NFKC)', () => {
    expect(tokenize('ＡＢＣ１２３')).toEqual(['abc123']);
  });

  it('applies minLength and stopwords', () => {
    expect(tokenize('a bb ccc', { minLength: 2 })).toEqual(['bb', 'ccc']);
    expect(tokenize('The Cat', { stopwords: new Set(['the']) })).toEqual(['cat']);
    expect(tokenize('Keep Case', { lowercase: false })).toEqual(['Keep', 'Case']);
  });

  it('drops English stopwords for content tokens', () => {
    expect(contentTokens('When did Caroline go to the LGBTQ support group?')).toEqual([
      'caroline',
      'lgbtq',
      'support',
      'group',
    ]);
  });
});
