// The scoring rules a dataset may name. Evidence recall and answer containment read the payload itself; the others
// read an answer: offline a rule-based reader (LoCoMo's extractive reader, or the choice best supported by the
// payload), with an executor model the model's answer; llm-judge has the judge model grade that answer.
import type { ResolvedModels, RoleModel } from '../../foundation/llm/models.ts';
import { fillPrompt, readPrompt } from '../../foundation/llm/prompt-file.ts';
import { ExtractiveReader } from '../locomo/agents.ts';
import { normalizeAnswer, tokenF1 } from '../locomo/f1.ts';
import { evidenceRecall, fold } from '../scoring/evidence-recall.ts';
import { askModel } from './ask.ts';
import { ContentError } from '../../foundation/usage-error.ts';
import type { QuestionRecord, ScoringRule } from './format.ts';

type Tokens = { prompt: number; completion: number };

export interface Scored {
  reward: number;
  answer?: string;
  metrics: Record<string, number>;
  note: string;
  tokens?: Tokens;
}

/** What a question is about, for a model's prompt: "a long conversation between Ana and Ben". */
export type About = string;

export interface Scorer {
  rule: ScoringRule;
  mode: 'offline' | 'model';
  /** Names the reader and judge: part of the outcome cache key. */
  id: string;
  deterministic: boolean;
  /** Can this question be scored under the rule (it has what the rule needs)? */
  scorable(q: QuestionRecord): boolean;
  score(q: QuestionRecord, evidence: { id: string; text: string }[], payload: string, about: About): Promise<Scored>;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const words = (s: string) =>
  normalizeAnswer(s)
    .split(' ')
    .filter((w) => w.length > 1);

/** A choice as the model and the reports show it: "B. Postgres". */
export const lettered = (choices: readonly string[], i: number) => `${LETTERS[i]}. ${choices[i]}`;

/** What a question counts as right under a rule: the gold choice for multiple choice, else its answers. */
export function goldAnswers(q: QuestionRecord, rule: ScoringRule): string[] {
  const i = rule === 'multiple-choice' ? goldChoice(q) : undefined;
  return i === undefined ? (q.answers ?? []) : [(q.choices as string[])[i] as string];
}

/** The gold choice's index: `correct`, else the choice equal to the first answer. */
export function goldChoice(q: QuestionRecord): number | undefined {
  if (!q.choices) return undefined;
  if (q.correct !== undefined) return q.correct < q.choices.length ? q.correct : undefined;
  const a = q.answers?.[0];
  if (a === undefined) return undefined;
  const i = q.choices.findIndex((c) => normalizeAnswer(c) === normalizeAnswer(a));
  return i >= 0 ? i : undefined;
}

/** Offline: the choice whose words the payload holds the largest share of (ties: the earlier choice). */
export function pickChoice(choices: string[], payload: string): number {
  const have = new Set(words(payload));
  let best = 0;
  let bestScore = -1;
  for (const [i, c] of choices.entries()) {
    const w = words(c);
    const score = w.length ? w.filter((x) => have.has(x)).length / w.length : 0;
    if (score > bestScore) [best, bestScore] = [i, score];
  }
  return best;
}

interface Reading {
  answer: string;
  tokens?: Tokens;
}

const extractive = new ExtractiveReader();

/** The answer to a question from the payload alone: the executor model's, else the extractive reader's line. */
async function read(executor: RoleModel | null, q: QuestionRecord, payload: string, about: About): Promise<Reading> {
  if (!executor) return extractive.answer(q.question, ['', ''], payload);
  const prompt = fillPrompt(readPrompt(import.meta.url, './prompts/answer.txt'), {
    about,
    memory: payload.trim() || '(empty)',
    question: q.question,
  });
  const reply = await askModel(executor, 'executor', prompt, 64);
  return { answer: reply.text.split('\n')[0]?.trim() ?? '', tokens: reply.tokens };
}

async function choose(
  executor: RoleModel | null,
  q: QuestionRecord,
  payload: string,
): Promise<{ index: number; tokens?: Tokens }> {
  const choices = q.choices as string[];
  if (!executor) return { index: pickChoice(choices, payload) };
  const listed = choices.map((_, i) => lettered(choices, i)).join('\n');
  const prompt = fillPrompt(readPrompt(import.meta.url, './prompts/choice.txt'), {
    memory: payload.trim() || '(empty)',
    question: q.question,
    choices: listed,
  });
  const reply = await askModel(executor, 'executor', prompt, 4);
  const letter = reply.text.toUpperCase().match(/[A-Z]/)?.[0] ?? '';
  const index = LETTERS.indexOf(letter);
  return { index: index < choices.length ? index : -1, tokens: reply.tokens };
}

async function judge(
  model: RoleModel,
  q: QuestionRecord,
  answer: string,
): Promise<{ correct: boolean; tokens: Tokens }> {
  const prompt = fillPrompt(readPrompt(import.meta.url, './prompts/judge.txt'), {
    question: q.question,
    gold: (q.answers ?? []).join(' | '),
    answer: answer || '(none)',
  });
  const reply = await askModel(model, 'judge', prompt, 4);
  return { correct: /^correct/i.test(reply.text), tokens: reply.tokens };
}

const addTokens = (a: Tokens | undefined, b: Tokens | undefined) =>
  a || b
    ? { prompt: (a?.prompt ?? 0) + (b?.prompt ?? 0), completion: (a?.completion ?? 0) + (b?.completion ?? 0) }
    : undefined;
const withTokens = (t: Tokens | undefined) => (t ? { tokens: t } : {});

/** What each rule needs of a question, for messages. */
export function needs(rule: ScoringRule): string {
  return rule === 'evidence-recall'
    ? 'evidence turn ids'
    : rule === 'multiple-choice'
      ? 'choices and a gold choice'
      : 'gold answers';
}

/** Which rules read an answer (and so a model, when there is one). */
export const readsAnswer = (rule: ScoringRule) =>
  rule === 'exact-match' || rule === 'f1' || rule === 'llm-judge' || rule === 'multiple-choice';

export function createScorer(rule: ScoringRule, models: Pick<ResolvedModels, 'executor' | 'judge'>): Scorer {
  if (rule === 'exact-match' && !models.executor) {
    // The offline reader answers with a whole line of the payload: it would never equal a short gold answer, and every
    // program would score 0 for a reason that is not its memory.
    throw new ContentError(
      'scoring "exact-match" needs a model to answer (AUTOMEMO_EXECUTOR_MODEL, with OPENAI_BASE_URL and OPENAI_API_KEY): offline, the reader answers with a whole line of the payload, which never equals a short gold answer. Offline, score with "answer-containment" (the payload holds a gold answer) or "f1" (word overlap of that line with the gold answer)',
    );
  }
  if (rule === 'llm-judge' && !models.judge) {
    throw new Error(
      'scoring "llm-judge" needs a judge model: set AUTOMEMO_JUDGE_MODEL (with OPENAI_BASE_URL and OPENAI_API_KEY, or AUTOMEMO_JUDGE_BASE_URL / _API_KEY); none is configured',
    );
  }
  const executor = models.executor;
  const mode = readsAnswer(rule) && (executor || rule === 'llm-judge') ? 'model' : 'offline';
  const readerId = !readsAnswer(rule)
    ? 'payload'
    : executor
      ? `data-model-reader:${executor.model}`
      : rule === 'multiple-choice'
        ? 'overlap-chooser-v1'
        : extractive.id;
  const id = `data-${rule}:${readerId}${rule === 'llm-judge' ? `+judge:${models.judge?.model}` : ''}`;
  return {
    rule,
    mode,
    id,
    deterministic: mode === 'offline',
    scorable: (q) =>
      rule === 'evidence-recall'
        ? (q.evidence?.length ?? 0) > 0
        : rule === 'multiple-choice'
          ? goldChoice(q) !== undefined
          : (q.answers?.length ?? 0) > 0,
    async score(q, evidence, payload, about) {
      const recall = evidence.length ? evidenceRecall(payload, evidence) : undefined;
      const metrics: Record<string, number> = recall ? { evidenceRecall: recall.recall } : {};
      const recallNote = recall
        ? `evidence ${recall.covered.length}/${evidence.length} covered${recall.missing.length ? ` (missing ${recall.missing.join(', ')})` : ''}`
        : 'no evidence turns';
      if (rule === 'evidence-recall') {
        // As LoCoMo offline: the reader's answer is shown beside the reward, which does not depend on it.
        const reading = await read(executor, q, payload, about);
        return {
          reward: recall?.recall ?? 0,
          answer: reading.answer,
          metrics,
          note: recallNote,
          ...withTokens(reading.tokens),
        };
      }
      if (rule === 'answer-containment') {
        const text = fold(payload);
        const found = (q.answers ?? []).find((a) => fold(a).length > 0 && text.includes(fold(a)));
        return {
          reward: found ? 1 : 0,
          metrics,
          note: found
            ? `the payload holds the answer "${found.slice(0, 80)}"`
            : 'no gold answer appears in the payload',
        };
      }
      if (rule === 'multiple-choice') {
        const gold = goldChoice(q) as number;
        const choices = q.choices as string[];
        const picked = await choose(executor, q, payload);
        const right = picked.index === gold;
        const answer = picked.index >= 0 ? lettered(choices, picked.index) : '(no choice)';
        return {
          reward: right ? 1 : 0,
          answer,
          metrics,
          note: `${right ? 'right' : 'wrong'} choice (gold ${LETTERS[gold]})`,
          ...withTokens(picked.tokens),
        };
      }
      const reading = await read(executor, q, payload, about);
      const golds = q.answers ?? [];
      if (rule === 'exact-match') {
        const right = golds.some((g) => normalizeAnswer(g) === normalizeAnswer(reading.answer));
        return {
          reward: right ? 1 : 0,
          answer: reading.answer,
          metrics,
          note: right ? 'exact match' : 'no exact match',
          ...withTokens(reading.tokens),
        };
      }
      if (rule === 'f1') {
        const f1 = Math.max(0, ...golds.map((g) => tokenF1(reading.answer, g)));
        return {
          reward: f1,
          answer: reading.answer,
          metrics: { ...metrics, f1 },
          note: `F1 ${f1.toFixed(2)} against the best gold answer`,
          ...withTokens(reading.tokens),
        };
      }
      const graded = await judge(models.judge as RoleModel, q, reading.answer);
      return {
        reward: graded.correct ? 1 : 0,
        answer: reading.answer,
        metrics,
        note: `judged ${graded.correct ? 'correct' : 'wrong'}`,
        ...withTokens(addTokens(reading.tokens, graded.tokens)),
      };
    },
  };
}
