// Evidence recall — the share of a question's evidence turns that the payload covers: LoCoMo's offline reward, and
// the data environment's "evidence-recall" rule (one implementation, so both score a payload alike).
// A turn is covered when its text appears in the payload (case and white space folded), or when at least 70% of
// its content words appear close together inside one paragraph (blank-line separated) of the payload — within a
// window of max(2 × the turn's length, 300) characters, so a long word soup cannot cover everything.
// Turns with fewer than 3 content words count only by their text. Turn ids alone never count.
// The rule the meta agent reads (EVIDENCE_RECALL_RULE) is written from the constants below, so it states exactly the
// folding, the words, the stop words, the share, the window and the paragraph break the checker applies.
import { ENGLISH_STOPWORDS } from '../../memo-programs/lib/tokenize.ts';

/** Share of a turn's distinct content words that must appear (rounded up). */
export const TOKEN_SHARE = 0.7;
/** Turns with fewer distinct content words count only by their whole text. */
export const MIN_CONTENT_TOKENS = 3;
/** Words shorter than this (JavaScript string length) are not content words. */
export const MIN_WORD_LENGTH = 2;
/** A word: a run of Unicode letters, digits and combining marks in the folded text. */
export const WORD = /[\p{L}\p{N}\p{M}]+/gu;
/** Paragraphs of the payload are separated by a blank line. */
export const PARAGRAPH_BREAK = /\n\s*\n/;
/** The matched words must lie within max(WINDOW_PER_CHAR × the folded turn's length, WINDOW_MIN) characters. */
export const WINDOW_PER_CHAR = 2;
export const WINDOW_MIN = 300;

/** The checker's stop words, sorted, as the rule lists them. */
export const stopWordList = (): string[] => [...ENGLISH_STOPWORDS].sort();

/** The rule above in words, for the meta agent's prompts (what a program must put in its payload). */
export const EVIDENCE_RECALL_RULE =
  "the share of the question's evidence turns (ground-truth turn ids, usually 1–3) that the payload covers. A turn's " +
  "text is its `text` alone: no speaker prefix, no image caption (a caption in the payload neither counts nor is " +
  'needed). The turn text and the payload are both folded first: Unicode NFKC, lower case, curly quotes made ' +
  'straight (‘ ’ to \' and “ ” to "), every run of white space made one space, ends trimmed. A turn is covered when ' +
  `its whole folded text appears in the folded payload, or when at least ${TOKEN_SHARE * 100}% (rounded up) of its ` +
  'distinct content words appear within one paragraph of the payload (paragraphs are separated by a blank line: ' +
  `the regex ${PARAGRAPH_BREAK}; each paragraph is folded on its own) with at most max(${WINDOW_PER_CHAR} × the ` +
  `folded turn's length, ${WINDOW_MIN}) characters from the start of the first matched word to the start of the ` +
  `last. Words are the matches of ${WORD} in folded text (so "don't" is "don" and "t", and "3:30" is "3" and "30"); ` +
  `content words are the words of ${MIN_WORD_LENGTH} characters or more that are not stop words. Turns with fewer ` +
  `than ${MIN_CONTENT_TOKENS} distinct content words count only by their whole text. A turn cut short, paraphrased ` +
  'or summarised usually does not count; turn ids alone never count; the answer itself is not scored. The stop ' +
  `words (automemo/lib's ENGLISH_STOPWORDS, ${ENGLISH_STOPWORDS.size}): ${stopWordList().join(' ')}.`;

export function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/\s+/g, ' ').trim();
}

interface Token {
  word: string;
  at: number;
}

function tokensWithOffsets(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    if (word.length < MIN_WORD_LENGTH || ENGLISH_STOPWORDS.has(word)) continue;
    out.push({ word, at: m.index ?? 0 });
  }
  return out;
}

/** A payload prepared once and checked against many turns. */
export class PayloadCoverage {
  private readonly folded: string;
  private readonly paragraphs: Token[][];

  constructor(payload: string) {
    this.folded = fold(payload);
    this.paragraphs = payload
      .split(PARAGRAPH_BREAK)
      .map((p) => tokensWithOffsets(fold(p)))
      .filter((t) => t.length > 0);
  }

  covers(turnText: string): boolean {
    const text = fold(turnText);
    if (text.length > 0 && this.folded.includes(text)) return true;
    const wanted = new Set(tokensWithOffsets(text).map((t) => t.word));
    if (wanted.size < MIN_CONTENT_TOKENS) return false;
    const need = Math.ceil(TOKEN_SHARE * wanted.size);
    const window = Math.max(WINDOW_PER_CHAR * text.length, WINDOW_MIN);
    for (const para of this.paragraphs) {
      const hits = para.filter((t) => wanted.has(t.word));
      if (new Set(hits.map((h) => h.word)).size < need) continue;
      // Slide a window over the hits, counting distinct wanted words inside it.
      const counts = new Map<string, number>();
      let distinct = 0;
      let lo = 0;
      for (const hit of hits) {
        const c = counts.get(hit.word) ?? 0;
        counts.set(hit.word, c + 1);
        if (c === 0) distinct++;
        while (hit.at - (hits[lo] as Token).at > window) {
          const old = (hits[lo] as Token).word;
          const oc = (counts.get(old) as number) - 1;
          counts.set(old, oc);
          if (oc === 0) distinct--;
          lo++;
        }
        if (distinct >= need) return true;
      }
    }
    return false;
  }
}

export interface RecallResult {
  recall: number;
  covered: string[];
  missing: string[];
}

export function evidenceRecall(payload: string, evidence: { id: string; text: string }[]): RecallResult {
  if (evidence.length === 0) return { recall: 0, covered: [], missing: [] };
  const coverage = new PayloadCoverage(payload);
  const covered: string[] = [];
  const missing: string[] = [];
  for (const turn of evidence) (coverage.covers(turn.text) ? covered : missing).push(turn.id);
  return { recall: covered.length / evidence.length, covered, missing };
}
