// A second offline reader, with rules unlike the first's, so that a program that learned the first reader rather than
// the memory shows it (issue 40: a pick reworded payloads so the first multiple-choice reader's tie rule picked its
// choice, and masked rival choices' words).
//
// The first readers read words anywhere: multiple choice takes the choice whose words the payload holds the largest
// share of (ties: the earlier choice); answer containment takes any occurrence of a gold answer. This one reads
// statements: a payload is cut into sentences (lines, and sentences within them), and only a sentence that also says
// what the question is about (shares one of its content words, a name above all) counts as support. Multiple choice
// takes the choice supported by the LATEST such sentence (decisions change: the last word on it wins), and abstains —
// scored wrong — when no choice is supported or two are supported by the same sentence; QA finds a gold answer only
// inside a supported sentence. A bare list of choices or answers, or a payload that names one choice without saying
// anything about the question, scores nothing here however the first reader scores it.
import { contentTokens } from '../../memo-programs/lib/tokenize.ts';
import { normalizeAnswer } from '../locomo/f1.ts';
import { fold } from './evidence-recall.ts';

export const SECOND_READER = 'second-reader';
/** What the second reader does, for reports and the README. */
export const SECOND_READER_RULE =
  'a sentence supports an answer only when it also shares a content word with the question; multiple choice takes the choice of the latest supporting sentence (abstains, scored wrong, when none or a tie), QA finds a gold answer only in a supporting sentence';

/** The payload's sentences, in order: its lines, each cut at sentence ends. */
export function sentences(payload: string): string[] {
  return payload
    .split('\n')
    .flatMap((line) => line.split(/(?<=[.!?])\s+/))
    .map((s) => s.trim())
    .filter(Boolean);
}

const wordsOf = (s: string) =>
  normalizeAnswer(s)
    .split(' ')
    .filter((w) => w.length > 1);

/** Whether the sentence says something about the question: a content word of the question (not of the choices) in it. */
function about(sentence: string, subject: Set<string>): boolean {
  return contentTokens(sentence).some((t) => subject.has(t));
}

/** The question's own content words, less those of the choices (a sentence naming a choice is not thereby about it). */
function subjectOf(question: string, choices: readonly string[]): Set<string> {
  const choiceWords = new Set(choices.flatMap((c) => contentTokens(c)));
  return new Set(contentTokens(question).filter((t) => !choiceWords.has(t)));
}

/** The index of the choice the second reader takes, or -1 when it abstains. */
export function secondChoice(question: string, choices: readonly string[], payload: string): number {
  const subject = subjectOf(question, choices);
  const said = sentences(payload);
  for (let i = said.length - 1; i >= 0; i--) {
    const s = said[i] as string;
    if (!about(s, subject)) continue;
    const have = new Set(wordsOf(s));
    const named = choices.flatMap((c, k) => {
      const w = wordsOf(c);
      return w.length && w.every((x) => have.has(x)) ? [k] : [];
    });
    if (named.length === 1) return named[0] as number;
    if (named.length > 1) return -1;
  }
  return -1;
}

/** 1 when a gold answer appears in a sentence that is about the question, else 0. */
export function secondContainment(question: string, answers: readonly string[], payload: string): number {
  const subject = subjectOf(question, answers);
  const golds = answers.map(fold).filter((a) => a.length > 0);
  return sentences(payload).some((s) => about(s, subject) && golds.some((g) => fold(s).includes(g))) ? 1 : 0;
}
