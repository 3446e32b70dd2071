// Reading a memory payload for the web reference agent: the shared experience reader with browser actions as
// the actions. An action counts when it names its element by role and name (`Click [e12] link "Refine"` as the
// session records it, or `Click link "Refine"`): refs alone mean nothing in another episode. Actions reported
// with an error did nothing and are dropped; answers are never replayed.
import { type Experience, type ParseOptions, parseExperience, swapArguments } from '../../../experience.ts';
import { formatAction, parseAction, portable, type WebAction } from '../../browser/grammar.ts';

const VERB = /\b(?:Click|Type|Select|Scroll|GoBack|Go back|Wait)\b/gi;
/** Where an action written inside a longer line ends: its result, an error note, a separator. */
const END = /\s(?:->|→|=>)\s|\s\[error|\s\(error|\s{3,}|\s\|\s/i;

function actionsIn(line: string): { calls: string[]; start: number } {
  const calls: string[] = [];
  let start = -1;
  for (const m of line.matchAll(VERB)) {
    const tail = line.slice(m.index);
    const cut = tail.search(END);
    const text = cut >= 0 ? tail.slice(0, cut) : tail;
    const errored = cut >= 0 && /^\s\[error|^\s\(error/i.test(tail.slice(cut));
    // Inside prose a click may run on ("Click link "Kitchen"; then …"): cut after its element.
    const a =
      parseAction(text) ??
      parseAction(text.replace(/^(\S+\s+(?:\[[^\]]*\]\s*)?[a-z]+\s+"(?:[^"\\]|\\.)*"(?:\s*#\d+)?)[\s;,.].*$/i, '$1'));
    if (!a || a.kind === 'answer' || (!a.role && !a.window && a.kind !== 'back' && a.kind !== 'wait')) continue;
    if (start < 0) start = m.index;
    if (!errored) calls.push(portable(a));
  }
  return { calls, start };
}

export function parseWebMemory(text: string, options: ParseOptions = {}): Experience[] {
  return parseExperience(text, actionsIn, { ...options, clean: (raw) => raw.replace(/\bANSWER\s*[;:].*$/i, ' ') });
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const pad = (n: number) => String(n).padStart(2, '0');

export interface Ymd {
  y: number;
  m: number;
  d: number;
}

/** Dates written in an instruction, in order: 2026-03-14, 14 March 2026, March 14, 2026, 14/03/2026. */
export function datesIn(s: string): Ymd[] {
  const out: { at: number; d: Ymd }[] = [];
  const month = (w: string) => MONTHS.findIndex((x) => x.startsWith(w.toLowerCase().slice(0, 3))) + 1;
  for (const m of s.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g))
    out.push({ at: m.index, d: { y: +(m[1] as string), m: +(m[2] as string), d: +(m[3] as string) } });
  for (const m of s.matchAll(/\b(\d{1,2})\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})\b/g))
    if (month(m[2] as string))
      out.push({ at: m.index, d: { y: +(m[3] as string), m: month(m[2] as string), d: +(m[1] as string) } });
  for (const m of s.matchAll(/\b([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})\b/g))
    if (month(m[1] as string))
      out.push({ at: m.index, d: { y: +(m[3] as string), m: month(m[1] as string), d: +(m[2] as string) } });
  for (const m of s.matchAll(/\b(\d{2})\/(\d{2})\/(\d{4})\b/g))
    out.push({ at: m.index, d: { y: +(m[3] as string), m: +(m[2] as string), d: +(m[1] as string) } });
  return out.sort((a, b) => a.at - b.at).map((x) => x.d);
}

/** The ways a date is commonly typed: a typed text in one of them is re-rendered in the same way for our date. */
const FORMATS: ((d: Ymd) => string)[] = [
  (d) => `${d.y}-${pad(d.m)}-${pad(d.d)}`,
  (d) => `${pad(d.d)}/${pad(d.m)}/${d.y}`,
  (d) => `${pad(d.m)}/${pad(d.d)}/${d.y}`,
  (d) => `${pad(d.d)}.${pad(d.m)}.${d.y}`,
  (d) => `${d.d}/${d.m}/${d.y}`,
  (d) => `${d.m}/${d.d}/${d.y}`,
];

/** Their dates re-rendered as ours, in whatever format the past action typed them (pairs in instruction order). */
function swapDates(text: string, dates: [Ymd, Ymd][]): string {
  let out = text;
  for (const [a, b] of dates) for (const f of FORMATS) if (out.includes(f(a))) out = out.split(f(a)).join(f(b));
  return out;
}

/** Pairs their instruction's dates with ours, in order. */
export function datePairs(theirs: string, ours: string): [Ymd, Ymd][] {
  const a = datesIn(theirs);
  const b = datesIn(ours);
  return a.slice(0, b.length).map((d, i) => [d, b[i] as Ymd]);
}

/** A past action with its task's arguments replaced by ours (element name and typed text). */
export function adaptAction(line: string, mapping: Map<string, string>, dates: [Ymd, Ymd][] = []): string | undefined {
  const a = parseAction(line);
  if (!a) return undefined;
  const swap = (v: string) => {
    const redated = swapDates(v, dates);
    return redated !== v ? redated : swapArguments(v, mapping);
  };
  const out: WebAction = {
    ...a,
    ...(a.name !== undefined ? { name: swap(a.name) } : {}),
    ...(a.text !== undefined ? { text: swap(a.text) } : {}),
  };
  return formatAction(out);
}
