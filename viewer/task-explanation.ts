// Why a task scored what it did, beside its payload: the environment's explanation (the question, the gold answers,
// the choices, the evidence with ids) as evidence keeps it (typed: engine/environment/explanation.ts), and where the
// payload holds the evidence and the gold — the spans the page highlights.
import { type Explanation as Explained, renderExplanation } from '../engine/environment/explanation.ts';

export interface Explanation {
  /** The whole explanation in words (always shown: notes and scenario fit no part below). */
  text: string;
  question?: string;
  gold: string[];
  choices: string[];
  /** Evidence turns (or records): the id the environment gave and the text. */
  evidence: { id: string; text: string }[];
}

/** What one payload holds of a task's explanation. */
export interface ExplanationFound {
  /** Whether the payload (whole, before any clipping for a report) holds each gold answer / evidence text. */
  goldFound: boolean[];
  evidenceFound: boolean[];
  /** Where the shown payload text holds them: [start, end) spans, in order, not overlapping. */
  marks: { start: number; end: number; kind: 'evidence' | 'gold'; index: number }[];
}

export interface ExplainedPayload extends Explanation, ExplanationFound {}

/** The found part of an explained payload (a report keeps the explanation itself once per task). */
export function foundPart(e: ExplainedPayload): ExplanationFound {
  return { goldFound: e.goldFound, evidenceFound: e.evidenceFound, marks: e.marks };
}

/** Texts shorter than this mean nothing alone (a one-letter answer is in every payload): not looked for. */
const MIN_FIND_CHARS = 3;
const MAX_ITEMS = 24;
const MAX_ITEM_CHARS = 600;

/** The explanation as the page shows it; undefined without one. */
export function explanationOf(e: Explained | undefined): Explanation | undefined {
  if (!e) return undefined;
  return {
    text: renderExplanation(e, MAX_ITEM_CHARS),
    ...(e.question !== undefined ? { question: e.question } : {}),
    gold: e.gold.slice(0, MAX_ITEMS).map((g) => g.slice(0, MAX_ITEM_CHARS)),
    choices: (e.choices ?? []).slice(0, MAX_ITEMS).map((c) => `${c.letter}. ${c.text}${c.gold ? ' (gold)' : ''}`),
    evidence: (e.evidence ?? []).slice(0, MAX_ITEMS).map((r) => ({ id: r.id, text: (r.text ?? '').slice(0, MAX_ITEM_CHARS) })),
  };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The text as a case-insensitive pattern that lets white space differ. */
const pattern = (s: string) => new RegExp(escape(s.trim()).replace(/\s+/g, '\\s+'), 'giu');

/** Every place `text` occurs in `payload`. */
function spans(payload: string, text: string): [number, number][] {
  if (text.trim().length < MIN_FIND_CHARS) return [];
  return [...payload.matchAll(pattern(text))].slice(0, 50).map((m) => [m.index ?? 0, (m.index ?? 0) + m[0].length]);
}

/** The explanation with what the payload holds: found in `whole`, marked in `shown` (the same text, maybe clipped). */
export function explainPayload(ex: Explanation, whole: string, shown: string = whole): ExplainedPayload {
  const marks: ExplainedPayload['marks'] = [];
  ex.evidence.forEach((e, index) => {
    for (const [start, end] of spans(shown, e.text)) marks.push({ start, end, kind: 'evidence', index });
  });
  ex.gold.forEach((g, index) => {
    for (const [start, end] of spans(shown, g)) marks.push({ start, end, kind: 'gold', index });
  });
  // Evidence first where spans overlap (a gold answer inside an evidence turn is shown as the turn).
  marks.sort((a, b) => a.start - b.start || (a.kind === b.kind ? b.end - a.end : a.kind === 'evidence' ? -1 : 1));
  const kept: ExplainedPayload['marks'] = [];
  for (const m of marks) if (!kept.length || m.start >= (kept.at(-1) as (typeof kept)[number]).end) kept.push(m);
  return {
    ...ex,
    goldFound: ex.gold.map((g) => spans(whole, g).length > 0),
    evidenceFound: ex.evidence.map((e) => spans(whole, e.text).length > 0),
    marks: kept,
  };
}
