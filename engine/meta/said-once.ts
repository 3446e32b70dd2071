// A case of the evidence shows a text once. What a task's evidence shows whole first (a record of its ground truth,
// the agent's answer, a step's result) is, where a later part of the same case holds it again (a step's result, a
// memory line), shown there as a reference: «evidence D4:5», «the agent's answer», «step 1's result». The texts
// come from typed fields (the explanation's records, the trajectory's steps), never from prose read back; the
// evidence guide (model/prompts/evidence-guide.txt) says once what a reference stands for.
import { type Explanation, RECORD_CHARS } from '../environment/explanation.ts';

/** A text a case has shown whole, and the reference a later copy of it shows instead. */
export interface Said {
  text: string;
  as: string;
}

/** Shorter texts stay where they are: a reference would save little and break up the line that holds them. */
export const SAID_MIN_CHARS = 40;
/** Texts a part of the evidence refers to at most (records and steps are bounded before; this bounds the work). */
const MAX_SAID = 256;

const reference = (as: string) => `«${as}»`;

/** A said text worth referring back to: long enough, and longer than its reference. */
export function said(text: string, as: string): Said[] {
  return text.length >= SAID_MIN_CHARS && text.length > reference(as).length ? [{ text, as }] : [];
}

/** The records of a ground truth whose text the rendering shows whole (renderExplanation), by their ids. */
export function recordsSaid(e: Explanation | undefined): Said[] {
  return (e?.evidence ?? [])
    .filter((r) => r.text !== undefined && r.text.length <= RECORD_CHARS)
    .flatMap((r) => said(r.text as string, `evidence ${r.id}`));
}

/**
 * `text` with each occurrence of a said text as its reference, the longest first (a whole result wins over a record
 * it holds).
 */
export function referBack(text: string, shown: readonly Said[]): string {
  if (!shown.length || text.length < SAID_MIN_CHARS) return text;
  let out = text;
  for (const s of [...shown].slice(0, MAX_SAID).sort((a, b) => b.text.length - a.text.length))
    if (out.includes(s.text)) out = out.split(s.text).join(reference(s.as));
  return out;
}
