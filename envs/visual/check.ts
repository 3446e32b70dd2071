// Exact checkers: normalized text (case, spaces, punctuation at the ends), numbers with a tolerance, letters.
import type { Answer } from './task.ts';

export function normalizeText(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\u00a0]+/g, ' ')
    .trim()
    .replace(/^[\s"'`.,;:!?()[\]]+|[\s"'`.,;:!?()[\]]+$/g, '')
    .replace(/\s*([/\-:])\s*/g, '$1');
}

/** The first number in a reply: "37,500 units" → 37500; "1.5k" → 1500; "12%" → 12. */
export function parseNumber(s: string): number | undefined {
  const m = s.replace(/(\d),(?=\d{3}\b)/g, '$1').match(/-?\d+(?:\.\d+)?\s*([kKmM](?![a-z]))?/);
  if (!m) return undefined;
  const n = Number.parseFloat(m[0]);
  const suffix = m[1]?.toLowerCase();
  return suffix === 'k' ? n * 1_000 : suffix === 'm' ? n * 1_000_000 : n;
}

export interface CheckResult {
  correct: boolean;
  note: string;
}

export function checkAnswer(answer: Answer, given: string | undefined): CheckResult {
  if (given === undefined || given.trim() === '') return { correct: false, note: 'no answer' };
  switch (answer.kind) {
    case 'text': {
      const got = normalizeText(given);
      const ok = [answer.value, ...(answer.aliases ?? [])].some((a) => normalizeText(a) === got);
      return { correct: ok, note: ok ? 'exact match' : `expected "${answer.value}", got "${given.trim().slice(0, 80)}"` };
    }
    case 'letter': {
      const m = given.trim().match(/^\(?([A-Ha-h])\)?(?:[.:)\s]|$)/);
      const ok = m?.[1]?.toUpperCase() === answer.value.toUpperCase();
      return { correct: ok, note: ok ? 'letter match' : `expected ${answer.value}, got "${given.trim().slice(0, 20)}"` };
    }
    case 'number': {
      const n = parseNumber(given);
      if (n === undefined) return { correct: false, note: `expected a number near ${answer.value}, got "${given.trim().slice(0, 40)}"` };
      const tol = Math.max(answer.absolute ?? 0, Math.abs(answer.value) * (answer.tolerance ?? 0.01));
      const ok = Math.abs(n - answer.value) <= tol + 1e-9;
      return { correct: ok, note: ok ? `within ${tol} of ${answer.value}` : `expected ${answer.value} (±${tol}), got ${n}` };
    }
  }
}
