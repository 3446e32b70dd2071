// Evidence recall — the share of a question's evidence turns that the payload covers: LoCoMo's offline reward, and
// the data environment's "evidence-recall" rule (one implementation, so both score a payload alike).
// A turn is covered when its text appears in the payload (case and white space folded), or when at least 70% of
// its content words appear close together inside one paragraph (blank-line separated) of the payload — within a
// window of max(2 × the turn's length, 300) characters, so a long word soup cannot cover everything.
// Turns with fewer than 3 content words count only by their text. Turn ids alone never count.
import { ENGLISH_STOPWORDS } from '../../memo-programs/lib/tokenize.ts';

export const TOKEN_SHARE = 0.7;

/** The rule above in a sentence, for the meta agent's prompts (what a program must put in its payload). */
export const EVIDENCE_RECALL_RULE =
  "the share of the question's evidence turns (ground-truth turn ids, usually 1–3) that the payload covers. A turn " +
  'is covered when its whole text appears in the payload (case and white space folded; the speaker prefix is not ' +
  'needed), or when at least 70% of its distinct content words (stopwords and 1-letter words dropped) appear within ' +
  'one paragraph of the payload (paragraphs are separated by blank lines) inside a window of max(2 × the turn\'s ' +
  'length, 300) characters. Turns with fewer than 3 content words count only by their whole text. A turn cut short, ' +
  'paraphrased or summarised usually does not count; turn ids alone never count; the answer itself is not scored.';
const MIN_CONTENT_TOKENS = 3;

export function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/\s+/g, ' ').trim();
}

interface Token {
  word: string;
  at: number;
}

function tokensWithOffsets(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
    const word = m[0];
    if (word.length < 2 || ENGLISH_STOPWORDS.has(word)) continue;
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
      .split(/\n\s*\n/)
      .map((p) => tokensWithOffsets(fold(p)))
      .filter((t) => t.length > 0);
  }

  covers(turnText: string): boolean {
    const text = fold(turnText);
    if (text.length > 0 && this.folded.includes(text)) return true;
    const wanted = new Set(tokensWithOffsets(text).map((t) => t.word));
    if (wanted.size < MIN_CONTENT_TOKENS) return false;
    const need = Math.ceil(TOKEN_SHARE * wanted.size);
    const window = Math.max(2 * text.length, 300);
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
