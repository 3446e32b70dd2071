// A task's ground truth as the environment states it for the meta agent (never for programs): the question, the
// gold answers, the choices with the gold one marked, the records that hold the answer. Declared once here: the
// interfaces, the schema that checks what arrives at the edge (a module's explain() is someone else's code; the
// compiler holds it to the interfaces) and the one rendering to prose (for a model's prompt or a person). Readers
// that decide something (the offline agent) read the fields, never the prose.
import { z } from 'zod';
import type { Same } from '../../foundation/same-type.ts';

/** Sizes an explanation may have: checked before any per-item work, so a module cannot hand over an unbounded one. */
export const EXPLANATION_LIMITS = {
  questionChars: 20_000,
  itemChars: 5_000,
  gold: 100,
  choices: 26,
  evidence: 200,
  notes: 50,
} as const;

const L = EXPLANATION_LIMITS;
const text = (max: number) => z.string().max(max, `is over ${max.toLocaleString('en')} characters`);

/** A record that holds a task's answer. */
export interface EvidenceRecord {
  /** The record's id as the data names it (a turn id such as "D1:3", a step, a document). */
  id: string;
  /** What it says. */
  text?: string;
  /** The session it is in, counted from 1, where the data has sessions. */
  session?: number;
  /** When it was said or written, as the data dates it (e.g. "1:56 pm on 8 May, 2023"). */
  time?: string;
  speaker?: string;
}

/** One option of a multiple-choice task. */
export interface Choice {
  /** A, B, C, … in the order the task lists the choices. */
  letter: string;
  text: string;
  /** The choice the checker counts as right. */
  gold: boolean;
}

/** A task's ground truth, for the meta agent (never for programs). */
export interface Explanation {
  /** What the task asks (its instruction or question). */
  question?: string;
  /** Its scenario (category, template, family). */
  scenario?: string;
  /** The answers the checker accepts: several when any of them counts; empty when the environment has none to give. */
  gold: string[];
  /** A multiple-choice task's options, lettered, the gold one marked. */
  choices?: Choice[];
  /** The records that hold the answer, with their ids. */
  evidence?: EvidenceRecord[];
  /** Anything else the environment wants the meta agent to know (a procedure, a quirk), a line each. */
  notes?: string[];
}

const EvidenceRecordSchema = z
  .object({
    id: text(500).min(1, 'is empty'),
    text: text(L.itemChars).optional(),
    session: z.number().int().min(0).optional(),
    time: text(200).optional(),
    speaker: text(200).optional(),
  })
  .strict();

const ChoiceSchema = z
  .object({
    letter: z.string().regex(/^[A-Z]$/, 'must be one capital letter'),
    text: text(L.itemChars),
    gold: z.boolean(),
  })
  .strict();

/** The check of what an environment's explain() returns, field for field the interfaces above. */
export const ExplanationSchema = z
  .object({
    question: text(L.questionChars).optional(),
    scenario: text(500).optional(),
    gold: z.array(text(L.itemChars)).max(L.gold, `holds more than ${L.gold} answers`),
    choices: z.array(ChoiceSchema).max(L.choices, `holds more than ${L.choices} choices`).optional(),
    evidence: z.array(EvidenceRecordSchema).max(L.evidence, `holds more than ${L.evidence} records`).optional(),
    notes: z.array(text(L.itemChars)).max(L.notes, `holds more than ${L.notes} notes`).optional(),
  })
  .strict();

// The schema and the interfaces say the same: each is assignable to the other, or this does not compile.
const sameShape: Same<z.infer<typeof ExplanationSchema>, Explanation> = true;
void sameShape;

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

const cut = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);

/**
 * An explanation built from data (a long turn, a long question) cut to EXPLANATION_LIMITS, so the check at the door
 * never refuses what a built-in environment states. Lists should be cut before per-item work; this cuts them again.
 */
export function withinLimits(e: Explanation): Explanation {
  const record = (r: EvidenceRecord): EvidenceRecord => ({
    id: cut(r.id, 500),
    ...(r.text !== undefined ? { text: cut(r.text, L.itemChars) } : {}),
    ...(r.session !== undefined ? { session: r.session } : {}),
    ...(r.time !== undefined ? { time: cut(r.time, 200) } : {}),
    ...(r.speaker !== undefined ? { speaker: cut(r.speaker, 200) } : {}),
  });
  return {
    ...(e.question !== undefined ? { question: cut(e.question, L.questionChars) } : {}),
    ...(e.scenario !== undefined ? { scenario: cut(e.scenario, 500) } : {}),
    gold: e.gold.slice(0, L.gold).map((g) => cut(g, L.itemChars)),
    ...(e.choices
      ? { choices: e.choices.slice(0, L.choices).map((c) => ({ ...c, text: cut(c.text, L.itemChars) })) }
      : {}),
    ...(e.evidence ? { evidence: e.evidence.slice(0, L.evidence).map(record) } : {}),
    ...(e.notes ? { notes: e.notes.slice(0, L.notes).map((n) => cut(n, L.itemChars)) } : {}),
  };
}

/** Choices lettered in order, the one at `gold` (if any) marked. */
export function letteredChoices(texts: readonly string[], gold?: number): Choice[] {
  return texts.slice(0, L.choices).map((t, i) => ({ letter: LETTERS[i] as string, text: t, gold: i === gold }));
}

/** The shape, in a line, for messages about a malformed one. */
export const EXPLANATION_SHAPE =
  '{ question?, scenario?, gold: string[], choices?: { letter, text, gold }[], ' +
  'evidence?: { id, text?, session?, time?, speaker? }[], notes?: string[] }';

/** Array fields whose length a value states before any per-item check (a module's array may be huge). */
function oversized(value: object): string | undefined {
  const v = value as Record<string, unknown>;
  for (const [key, max] of [
    ['gold', L.gold],
    ['choices', L.choices],
    ['evidence', L.evidence],
    ['notes', L.notes],
  ] as const) {
    const list = Object.hasOwn(v, key) ? v[key] : undefined;
    if (Array.isArray(list) && list.length > max) return `${key} holds ${list.length} items, more than ${max}`;
  }
  return undefined;
}

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/** What is wrong with a value meant as an explanation, or the explanation. */
export function parseExplanation(
  value: unknown,
): { ok: true; explanation: Explanation } | { ok: false; problem: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      problem: `expected an object ${EXPLANATION_SHAPE}, got ${kindOf(value)}`,
    };
  }
  try {
    const big = oversized(value);
    if (big) return { ok: false, problem: big };
    const r = ExplanationSchema.safeParse(value);
    if (r.success) return { ok: true, explanation: r.data };
    const issues = r.error.issues.slice(0, 6).map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`);
    return { ok: false, problem: `${issues.join('; ')} (an explanation is ${EXPLANATION_SHAPE})` };
  } catch (err) {
    // A getter that throws, a proxy: the value could not even be read.
    return { ok: false, problem: `it could not be read: ${String((err as Error)?.message ?? err).slice(0, 300)}` };
  }
}

/** An environment's explain() returned something that is not an explanation: the environment's fault, named. */
export class ExplanationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExplanationError';
  }
}

/**
 * What an environment's explain (`call`) returns for a task, checked; undefined stays undefined (no ground truth for
 * that task). A throw or anything else is refused with an ExplanationError naming the environment (`from`, e.g.
 * `environment "vaults" (./env.ts)`), the task and the problem.
 */
export function checkedExplanation(call: () => unknown, from: string, taskId: string): Explanation | undefined {
  const which = `${from}: explain(${JSON.stringify(String(taskId).slice(0, 200))})`;
  let value: unknown;
  try {
    value = call();
  } catch (err) {
    throw new ExplanationError(`${which} threw: ${String((err as Error)?.message ?? err).slice(0, 500)}`);
  }
  if (value === undefined) return undefined;
  const r = parseExplanation(value);
  if (r.ok) return r.explanation;
  throw new ExplanationError(`${which} returned a malformed explanation: ${r.problem}`);
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** Where a record sits and who wrote it: "[D1:3, session 1 (8 May, 2023)] Caroline: ". */
function recordHead(r: EvidenceRecord): string {
  const where =
    r.session !== undefined ? `, session ${r.session}${r.time ? ` (${r.time})` : ''}` : r.time ? `, ${r.time}` : '';
  return `[${r.id}${where}] ${r.speaker ? `${r.speaker}: ` : ''}`;
}

/** A record's text is shown up to this many characters (renderExplanation's default). */
export const RECORD_CHARS = 1000;

/**
 * The explanation as prose for a model's prompt or a report, a line per part, each record's text clipped to
 * `recordChars`. The only place an explanation becomes text.
 */
export function renderExplanation(e: Explanation, recordChars = RECORD_CHARS): string {
  const lines: string[] = [];
  if (e.question !== undefined) lines.push(`question${e.scenario ? ` (${e.scenario})` : ''}: ${e.question}`);
  else if (e.scenario) lines.push(`scenario: ${e.scenario}`);
  if (e.choices?.length)
    lines.push(`choices: ${e.choices.map((c) => `${c.letter}. ${c.text}${c.gold ? ' (gold)' : ''}`).join('; ')}`);
  if (e.gold.length) {
    const gold = e.gold.map((g) => JSON.stringify(g)).join(', ');
    lines.push(`${e.gold.length > 1 ? 'gold answers (any counts)' : 'gold answer'}: ${gold}`);
  }
  const record = (r: EvidenceRecord) =>
    `- ${recordHead(r)}${r.text !== undefined ? clip(r.text, recordChars) : '(text not available)'}`;
  if (e.evidence?.length) lines.push(`evidence:\n${e.evidence.map(record).join('\n')}`);
  for (const n of e.notes ?? []) lines.push(n);
  return lines.join('\n');
}
