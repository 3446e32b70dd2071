// The data format (README.md here): a header line naming the dataset and its scoring rule, then one line per world
// (an ordered history of sessions with turns, and questions about it). JSONL, or the same as one JSON document.
import { z } from 'zod';

export const SCORING_RULES = ['evidence-recall', 'answer-containment', 'multiple-choice', 'exact-match', 'f1', 'llm-judge'] as const;
export type ScoringRule = (typeof SCORING_RULES)[number];

/** Ceilings that keep a hostile file from costing more than reading it. */
export const LIMITS = {
  fileBytes: 512 * 2 ** 20,
  lineBytes: 64 * 2 ** 20,
  files: 1000,
  worlds: 100_000,
  sessionsPerWorld: 10_000,
  turnsPerSession: 10_000,
  questionsPerWorld: 100_000,
  textChars: 100_000,
  imageBytes: 20 * 2 ** 20,
  images: 10_000,
  imagesTotalBytes: 512 * 2 ** 20,
} as const;

const Id = z.string().min(1).max(200);
const Text = z.string().max(LIMITS.textChars);
/** An answer or a choice: text, or a number written as one (42, 3.5), read as its text. */
const AnswerText = z.union([Text, z.number().finite().transform((n) => String(n))]);
/** ISO date-time (without a zone: UTC) or ms since epoch (envs/data/time.ts). */
const Time = z.union([z.string().max(100), z.number().finite()]);

export const HeaderSchema = z
  .object({
    type: z.literal('dataset'),
    name: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/i, 'name: letters, digits, ".", "_", "-" (at most 64)'),
    description: Text.optional(),
    scoring: z.enum(SCORING_RULES),
    /** Payload budget per retrieve (default 4,000 characters and 2 images, as LoCoMo). */
    budget: z.object({ maxChars: z.number().int().min(1).max(1_000_000), maxImages: z.number().int().min(0).max(100) }).optional(),
    /** Share of questions in the train split (default 0.2, seeded and stable per question id). */
    trainShare: z.number().gt(0).lt(1).optional(),
  })
  .strict();
export type Header = z.infer<typeof HeaderSchema>;

const ImageSchema = z.object({ path: z.string().min(1).max(1000), caption: Text.optional() }).strict();

const TurnSchema = z
  .object({
    id: Id,
    speaker: z.string().max(200).optional(),
    text: Text,
    /** A caption of an image shared in the turn (text only). */
    caption: Text.optional(),
    /** An image file, relative to the data file; it reaches programs as an image of the episode. */
    image: ImageSchema.optional(),
  })
  .strict();

const SessionSchema = z
  .object({
    /** The memory's clock during this session. */
    time: Time,
    /** How the date reads in the data (e.g. "1:56 pm on 8 May, 2023"); default the ISO date. */
    label: z.string().max(200).optional(),
    turns: z.array(TurnSchema).min(1).max(LIMITS.turnsPerSession),
  })
  .strict();

const QuestionSchema = z
  .object({
    id: Id,
    question: Text,
    /** Groups results (a category, a skill). Default "all". */
    scenario: z.string().min(1).max(100).optional(),
    answers: z.array(AnswerText).max(100).optional(),
    /** Turn ids of this world that hold the answer. */
    evidence: z.array(Id).max(1000).optional(),
    /** Multiple choice: the options; the gold one is `correct` (index) or the first of `answers`. */
    choices: z.array(AnswerText).min(2).max(26).optional(),
    correct: z.number().int().min(0).max(25).optional(),
    /** When the question is asked: the memory's clock during its retrieve (default a day after the last session). */
    time: Time.optional(),
  })
  .strict();

export const WorldSchema = z
  .object({
    type: z.literal('world'),
    id: Id,
    speakers: z.array(z.string().min(1).max(200)).max(100).optional(),
    sessions: z.array(SessionSchema).min(1, 'a world needs at least one session').max(LIMITS.sessionsPerWorld),
    questions: z.array(QuestionSchema).max(LIMITS.questionsPerWorld),
  })
  .strict();
export type WorldRecord = z.infer<typeof WorldSchema>;
export type QuestionRecord = WorldRecord['questions'][number];
export type TurnRecord = WorldRecord['sessions'][number]['turns'][number];

/** The JSON form: one document holding the header and the worlds. */
export const DocumentSchema = z.object({ dataset: HeaderSchema.omit({ type: true }), worlds: z.array(z.unknown()).max(LIMITS.worlds) }).strict();
