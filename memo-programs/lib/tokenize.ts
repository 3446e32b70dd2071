// Unicode tokenizer: words of letters, digits and combining marks in every script.
// Scripts written without spaces (Han, Kana, Thai, Lao, Khmer, Myanmar, Tibetan) yield one token per character,
// so their text still matches word by word instead of as one sentence-long token.

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const UNSPACED = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}\p{scx=Tibetan}]/u;
const UNSPACED_CHAR =
  /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}\p{scx=Tibetan}][\p{M}]*/gu;

export interface TokenizeOptions {
  /** Lower-case tokens (default true). */
  lowercase?: boolean;
  /** Drop tokens shorter than this many characters (default 1). */
  minLength?: number;
  /** Drop these tokens (compared after lower-casing). */
  stopwords?: ReadonlySet<string>;
}

export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const { lowercase = true, minLength = 1, stopwords } = options;
  const normalized = text.normalize('NFKC');
  const out: string[] = [];
  for (const match of normalized.matchAll(WORD)) {
    const word = lowercase ? match[0].toLowerCase() : match[0];
    const pieces = UNSPACED.test(word) ? splitUnspaced(word) : [word];
    for (const piece of pieces) {
      if ([...piece].length < minLength) continue;
      if (stopwords?.has(piece.toLowerCase())) continue;
      out.push(piece);
    }
  }
  return out;
}

/** Runs of spaced-script letters stay whole; each unspaced-script character becomes a token. */
function splitUnspaced(word: string): string[] {
  const out: string[] = [];
  let last = 0;
  for (const m of word.matchAll(UNSPACED_CHAR)) {
    const at = m.index ?? 0;
    if (at > last) out.push(word.slice(last, at));
    out.push(m[0]);
    last = at + m[0].length;
  }
  if (last < word.length) out.push(word.slice(last));
  return out;
}

/** Common English function words; content-token comparisons ignore them. */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves im ive its dont s t ll re ve d m o y yeah oh wow hey hi really also ' +
    'get got go going gonna one lot lots thing things like well much many us let lets'
  ).split(' '),
);

/** Lower-cased tokens without English stopwords and single characters of spaced scripts. */
export function contentTokens(text: string): string[] {
  return tokenize(text, { stopwords: ENGLISH_STOPWORDS }).filter((t) => t.length > 1 || UNSPACED.test(t));
}
