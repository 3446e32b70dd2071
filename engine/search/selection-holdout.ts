// An honest pick (issue 40): part of the validation tasks is held out for selection only. The search's samples are
// dealt from the rest; the meta agent reads only those samples' evidence (a held-out task is never evaluated before
// the final phase, and its evidence folder, evidence/<node>/selection-0, is never one a parent context reads). After
// the budget the leading candidates are scored on the held-out tasks once, and the pick is the best there: the
// programs the meta agent wrote to fix what it saw are chosen on tasks it never saw.
//
// Sized so both intervals still resolve: round(share · n) tasks, at least MIN_HELD, at most half, and never so many
// that the search keeps fewer than MIN_SEARCH (the 30 tasks an evaluation needs to tell programs apart); a validation
// too small for both holds nothing out, and the plan says so.
import { taskHash } from '../environment/roles.ts';

/** Share of the validation tasks held out for selection by default (0 holds none out). */
export const DEFAULT_SELECTION_SHARE = 0.3;
/** Held-out tasks at least, when any. */
const MIN_HELD = 20;
/** Validation tasks the search keeps at least (engine/evaluate/task-sample.ts's minimum). */
const MIN_SEARCH = 30;
/** Validation tasks a search needs before it holds any out. */
export const MIN_VALIDATION_FOR_SELECTION = MIN_HELD + MIN_SEARCH;

/** How many of n validation tasks are held out: round(share·n), at least MIN_HELD, at most half, leaving MIN_SEARCH. */
export function selectionSize(n: number, share: number): number {
  if (!share) return 0;
  const k = Math.min(Math.floor(n / 2), Math.max(MIN_HELD, Math.round(share * n)), n - MIN_SEARCH);
  return k >= MIN_HELD ? k : 0;
}

/** The held-out tasks: the first selectionSize of a seeded order (the run seed); the search keeps the rest. */
export function holdOut(ids: readonly string[], seed: number, share: number): { search: string[]; selection: string[] } {
  const unique = [...new Set(ids)];
  const k = selectionSize(unique.length, share);
  if (!k) return { search: [...ids], selection: [] };
  const ranked = unique.map((id) => ({ id, h: taskHash(seed, `selection\u0000${id}`) })).sort((a, b) => a.h - b.h || (a.id < b.id ? -1 : 1));
  const held = new Set(ranked.slice(0, k).map((x) => x.id));
  return { search: ids.filter((id) => !held.has(id)), selection: unique.filter((id) => held.has(id)) };
}
