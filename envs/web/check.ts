// Checkers. Answers: normalized exact text (with aliases), must-include (every required piece, one-token pieces
// matched as whole words), numbers with a tolerance. State: the records and fields a task must set, and a guard
// that nothing outside the task changed (WorkArena's side-effect check).
import { normalizeText, parseNumber } from '../visual/check.ts';

export interface CheckResult {
  correct: boolean;
  note: string;
}

const clip = (s: string | undefined, n = 80) => (s ?? '').trim().slice(0, n);

export function exactAnswer(expected: string, given: string | undefined, aliases: string[] = []): CheckResult {
  if (!given?.trim()) return { correct: false, note: 'no answer' };
  const got = normalizeText(given);
  const ok = [expected, ...aliases].some((a) => normalizeText(a) === got);
  return { correct: ok, note: ok ? 'exact match' : `expected "${expected}", got "${clip(given)}"` };
}

/** Every piece must appear; a one-word piece must appear as a whole word (so "1" is not found in "12"). */
export function mustInclude(pieces: string[], given: string | undefined): CheckResult {
  if (!given?.trim()) return { correct: false, note: 'no answer' };
  const got = normalizeText(given);
  const missing = pieces.filter((p) => {
    const n = normalizeText(p);
    if (/\s/.test(n)) return !got.includes(n);
    return !new RegExp(`(^|[^\\p{L}\\p{N}])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}\\p{N}])`, 'u').test(got);
  });
  return { correct: missing.length === 0, note: missing.length ? `answer lacks ${missing.map((m) => `"${m}"`).join(', ')}` : 'includes every required piece' };
}

export function numberAnswer(expected: number, given: string | undefined, options: { absolute?: number; relative?: number } = {}): CheckResult {
  if (!given?.trim()) return { correct: false, note: 'no answer' };
  const n = parseNumber(given.replace(/[$€£]/g, ''));
  if (n === undefined) return { correct: false, note: `expected a number near ${expected}, got "${clip(given, 40)}"` };
  const tol = Math.max(options.absolute ?? 0.005, Math.abs(expected) * (options.relative ?? 0));
  const ok = Math.abs(n - expected) <= tol + 1e-9;
  return { correct: ok, note: ok ? `within ${tol} of ${expected}` : `expected ${expected}, got ${n}` };
}

/** Paths ("tickets.3.status") whose values differ between two JSON values. */
export function changedPaths(before: unknown, after: unknown, prefix = ''): string[] {
  if (Object.is(before, after)) return [];
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  if (!isObj(before) || !isObj(after) || Array.isArray(before) !== Array.isArray(after)) return [prefix || '(root)'];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const out: string[] = [];
  for (const k of keys) out.push(...changedPaths(before[k], after[k], prefix ? `${prefix}.${k}` : k));
  return out;
}

/**
 * Side-effect guard: every changed path must start with one of `allowed` ("tickets.3", "orders"). Returns the
 * first offending paths, or an empty list.
 */
export function unexpectedChanges(before: unknown, after: unknown, allowed: string[]): string[] {
  const ok = (p: string) => allowed.some((a) => p === a || p.startsWith(`${a}.`));
  return changedPaths(before, after).filter((p) => !ok(p));
}

/**
 * A state check: `expect` lists what must hold (each a description and a test), `allowed` the paths the task may
 * change. Correct when every expectation holds and nothing else changed.
 */
export function stateCheck(before: unknown, after: unknown, expect: { what: string; holds: boolean }[], allowed: string[]): CheckResult {
  const failed = expect.filter((e) => !e.holds).map((e) => e.what);
  const extra = unexpectedChanges(before, after, allowed);
  if (failed.length) return { correct: false, note: `not done: ${failed.join('; ')}` };
  if (extra.length) return { correct: false, note: `changed outside the task: ${extra.slice(0, 4).join(', ')}${extra.length > 4 ? ', …' : ''}` };
  return { correct: true, note: `done: ${expect.map((e) => e.what).join('; ')}` };
}

/** Both must hold (state and answer). */
export function allOf(...results: CheckResult[]): CheckResult {
  const bad = results.find((r) => !r.correct);
  return bad ?? { correct: true, note: results.map((r) => r.note).join('; ') };
}
