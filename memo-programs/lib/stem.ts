// A light English suffix stemmer, so one word family meets in a lexical index (volunteer / volunteering,
// hike / hiking). Deliberately crude: it only has to map related forms together, not to produce real stems.
import { contentTokens } from './tokenize.ts';

const SUFFIXES = ['ations', 'ation', 'ings', 'ing', 'ness', 'ments', 'ment', 'ers', 'er', 'ed', 'es', 's'];

/** The stem of one lower-cased word: common suffixes, a final e and a doubled final consonant removed. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let s = word;
  if ((s.endsWith('ies') || s.endsWith('ied')) && s.length > 4) s = `${s.slice(0, -3)}y`;
  for (let pass = 0; pass < 2; pass++) {
    const before = s;
    for (const suffix of SUFFIXES) {
      if (s.endsWith(suffix) && s.length - suffix.length >= 3) {
        s = s.slice(0, -suffix.length);
        break;
      }
    }
    if (s === before) break;
  }
  if (s.length > 3 && s.endsWith('e')) s = s.slice(0, -1);
  if (s.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(s)) s = s.slice(0, -1);
  return s;
}

/** Stemmed content tokens of a text (stopwords dropped): what the pipeline's lexical index and overlaps compare. */
export function stemmedTokens(text: string): string[] {
  return contentTokens(text).map(stem);
}
