// Query parsing (regex only, as released): relative-time phrases become a time range and leave the query;
// modality hints; "evidence" wording. Fixes over the released code: relative dates are computed from the
// memory's clock (ctx.now(), the episodes' time) instead of the wall clock, and modality hints are whole words
// and only narrow the search when that modality is in memory (released: substrings such as "see" in "seen"
// became a hard filter that emptied text-only stores).
import type { OmniConfig } from './config.ts';
import type { Modality } from './mau.ts';

export interface ParsedQuery {
  text: string;
  timeRange?: { from: number; to: number };
  modality?: Modality;
  evidence: boolean;
}

const DAY = 86_400_000;

const TIME_PHRASES: { re: RegExp; range: (now: number) => { from: number; to: number } }[] = [
  { re: /\byesterday\b/i, range: (now) => ({ from: startOfDay(now) - DAY, to: startOfDay(now) }) },
  { re: /\btoday\b/i, range: (now) => ({ from: startOfDay(now), to: startOfDay(now) + DAY }) },
  { re: /\blast week\b/i, range: (now) => ({ from: now - 14 * DAY, to: now - 7 * DAY }) },
  { re: /\bthis week\b/i, range: (now) => ({ from: now - 7 * DAY, to: now + DAY }) },
  { re: /\blast month\b/i, range: (now) => ({ from: now - 60 * DAY, to: now - 30 * DAY }) },
  { re: /\bthis month\b/i, range: (now) => ({ from: now - 30 * DAY, to: now + DAY }) },
];

function startOfDay(t: number): number {
  return t - (t % DAY);
}

const VISUAL_HINTS = /\b(see|saw|seen|show|shown|photo|photos|picture|pictures|image|images|look like|looked like)\b/i;
const EVIDENCE = /\b(show me|prove|exactly|specifically|details?)\b/i;

export function parseQuery(raw: string, now: number, hasVisual: boolean): ParsedQuery {
  let text = raw;
  let timeRange: ParsedQuery['timeRange'];
  for (const p of TIME_PHRASES) {
    if (p.re.test(text)) {
      timeRange = p.range(now);
      text = text.replace(p.re, ' ');
    }
  }
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(text);
  if (iso) {
    const from = Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]));
    timeRange = { from, to: from + DAY };
    text = text.replace(iso[0], ' ');
  }
  const parsed: ParsedQuery = { text: text.replace(/\s+/g, ' ').trim() || raw, evidence: EVIDENCE.test(raw) };
  if (timeRange) parsed.timeRange = timeRange;
  if (hasVisual && VISUAL_HINTS.test(raw)) parsed.modality = 'visual';
  return parsed;
}

/** top_k as the released strategy picks it: 5 for evidence queries, 20 for temporal ones, else 10. */
export function strategyTopK(q: ParsedQuery, c: OmniConfig): number {
  if (q.evidence) return c.topKEvidence;
  if (q.timeRange) return c.topKTemporal;
  return c.topK;
}
