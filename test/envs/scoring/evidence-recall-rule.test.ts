// The reward rule the meta model reads states exactly what the checker does. The facts are read back out of the
// rule's own words — its word pattern, stop words, share, window, paragraph break and minimum — and a checker written
// only from them is compared with the real one on thousands of payloads cut from LoCoMo's turns: the two agree on
// every one, and each way of covering (or failing to cover) a turn occurs.
import { describe, expect, it } from 'vitest';
import { ENGLISH_STOPWORDS } from '../../../memo-programs/lib/tokenize.ts';
import { resolveModels } from '../../../foundation/llm/models.ts';
import { defaultLocomoDir, LocomoEnvironment } from '../../../envs/locomo/environment.ts';
import { loadConversations } from '../../../envs/locomo/load.ts';
import { EVIDENCE_RECALL_RULE, PayloadCoverage } from '../../../envs/scoring/evidence-recall.ts';
import { seededRandom } from '../../../engine/random.ts';

const rule = EVIDENCE_RECALL_RULE;
const pick = (re: RegExp) => {
  const m = re.exec(rule);
  if (!m) throw new Error(`the rule does not state ${re}`);
  return m;
};

/** What a reader of the rule learns, parsed from its words alone. */
const stated = {
  share: Number(pick(/at least (\d+)% \(rounded up\)/)[1]) / 100,
  word: new RegExp(
    pick(/Words are the matches of \/(.+?)\/([a-z]*) in folded text/)[1] as string,
    `${pick(/Words are the matches of \/(.+?)\/([a-z]*) in folded text/)[2]}`,
  ),
  minLength: Number(pick(/content words are the words of (\d+) characters or more/)[1]),
  minContent: Number(pick(/fewer than (\d+) distinct content words count only by their whole text/)[1]),
  window: pick(/at most max\((\d+) × the folded turn's length, (\d+)\) characters/)
    .slice(1)
    .map(Number) as [number, number],
  paragraph: new RegExp(pick(/the regex \/(.+?)\/;/)[1] as string),
  stopWords: new Set(
    (pick(/The stop words \(automemo\/lib's ENGLISH_STOPWORDS, \d+\): ([^.]+)\.$/)[1] as string).split(' '),
  ),
};

/** Folding as the rule words it. */
const fold = (t: string) =>
  t.normalize('NFKC').toLowerCase().replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim();
const contentWords = (t: string) =>
  [...t.matchAll(new RegExp(stated.word.source, 'gu'))]
    .filter((m) => m[0].length >= stated.minLength && !stated.stopWords.has(m[0]))
    .map((m) => ({ word: m[0], at: m.index ?? 0 }));

/** A checker written from the rule's words only. */
function coversAsStated(payload: string, turnText: string): boolean {
  const text = fold(turnText);
  if (text && fold(payload).includes(text)) return true;
  const wanted = new Set(contentWords(text).map((w) => w.word));
  if (wanted.size < stated.minContent) return false;
  const need = Math.ceil(stated.share * wanted.size);
  const window = Math.max(stated.window[0] * text.length, stated.window[1]);
  for (const paragraph of payload.split(stated.paragraph)) {
    const hits = contentWords(fold(paragraph)).filter((w) => wanted.has(w.word));
    for (let i = 0; i < hits.length; i++) {
      const inside = new Set(
        hits
          .filter((h) => h.at >= (hits[i] as { at: number }).at && h.at - (hits[i] as { at: number }).at <= window)
          .map((h) => h.word),
      );
      if (inside.size >= need) return true;
    }
  }
  return false;
}

describe('the evidence-recall rule the meta model reads', () => {
  it("lists exactly the checker's stop words, and LoCoMo's prompt carries the rule whole", () => {
    expect([...stated.stopWords].sort()).toEqual([...ENGLISH_STOPWORDS].sort());
    expect(stated).toMatchObject({ share: 0.7, minLength: 2, minContent: 3, window: [2, 300] });
    expect(LocomoEnvironment.load({ models: resolveModels({}, {}) }).guide().reward).toContain(rule);
    // A caption is not part of the turn's text.
    expect(rule).toContain('no image caption');
  });

  it('tokenizes as the checker does: a checker built from the rule agrees with the real one on every payload', () => {
    const turns = loadConversations(defaultLocomoDir()).conversations.flatMap((c) => [...c.turns.values()]);
    const random = seededRandom(32, 'evidence-rule');
    const draw = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)] as T;
    const filler = () =>
      Array.from({ length: 1 + Math.floor(random() * 60) }, () =>
        draw(['the', 'we', 'talked', 'about', 'it', 'later', '—', 'and', 'so', 'on']),
      ).join(' ');
    const outcomes = { text: 0, words: 0, no: 0 };
    for (let i = 0; i < 3000; i++) {
      const turn = draw(turns);
      const words = turn.text.split(/\s+/);
      const kind = i % 6;
      let payload: string;
      if (kind === 0) payload = `[${turn.speaker}] ${turn.text.toUpperCase().replace(/'/g, '’')}`;
      else if (kind === 1) payload = words.filter(() => random() > 0.35).join(' ');
      else if (kind === 2)
        payload = words.map((w) => (random() < 0.3 ? `${w}\n\n` : `${w} ${random() < 0.2 ? filler() : ''}`)).join(' ');
      else if (kind === 3) payload = [...words].sort(() => random() - 0.5).join(random() < 0.5 ? ' ' : ', ');
      else if (kind === 4)
        payload = `${turn.caption ?? 'a photo'}\n${words.slice(0, Math.ceil(words.length * random())).join(' ')}`;
      else payload = words.map((w) => w.replace(/[aeiou]/, random() < 0.2 ? '' : '$&')).join(' ');
      const real = new PayloadCoverage(payload).covers(turn.text);
      expect(coversAsStated(payload, turn.text), `turn ${turn.id} in ${JSON.stringify(payload.slice(0, 200))}`).toBe(
        real,
      );
      if (!real) outcomes.no++;
      else if (fold(payload).includes(fold(turn.text))) outcomes.text++;
      else outcomes.words++;
    }
    // Every way of deciding happened often.
    expect(Math.min(outcomes.text, outcomes.words, outcomes.no)).toBeGreaterThan(200);
  });
});
