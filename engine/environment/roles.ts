// Roles of tasks that come without one. Tasks are grouped into strata (a world and a scenario; the world is the
// memory they share, the scenario their kind); within a stratum, tasks are ranked by a seeded hash of their id and
// the first few go to update (what the memory learns from), the next to validation (what the search asks about), the
// rest to test. Stable: the same seed and the same tasks give the same roles, in any order.
//
// How many: a benchmark may say, as shares per scenario (`trainShare`, `validationShare`: the share of a scenario that
// trains, and the share of those that validate) or as counts in all (`update`, `validation`). Unsaid, a sixth of the
// tasks are update and validation gets enough to tell programs apart: a quarter of the remaining tasks, at least 30,
// never more than half of them (so whenever there are 90 tasks or more, validation has at least 30). Counts in all are
// shared among strata in proportion to their size, every stratum of three tasks or more getting one update and one
// validation task first: a small scenario is learned from and asked about, and a large one does not take everything.
import { createHash } from 'node:crypto';

/** Which batch a task belongs to: update (its episode is learned from), validation (asked during the search), test (asked once at the end). */
export type TaskRole = 'update' | 'validation' | 'test';

/** A uniform number in [0, 1) from the seed and a task id. */
export function taskHash(seed: number, id: string): number {
  const h = createHash('sha256').update(`${seed}\u0000${id}`).digest();
  return h.readUInt32BE(0) / 2 ** 32;
}

/** How a benchmark states its split: shares per scenario, or counts in all; unsaid, the default above. */
export interface SplitSpec {
  /** Share of each scenario's tasks that go to train (update + validation). */
  trainShare?: number;
  /** Share of train that is validation (default 0.5). */
  validationShare?: number;
  /** Update tasks in all. */
  update?: number;
  /** Validation tasks in all. */
  validation?: number;
}

export const DEFAULT_UPDATE_SHARE = 1 / 6;
/** Validation tasks the default split gives at least, where there are enough tasks (engine/evaluate/task-sample.ts). */
export const DEFAULT_MIN_VALIDATION = 30;
const DEFAULT_VALIDATION_SHARE = 0.5;

/** How many of a scenario's `n` tasks go to update and to validation under shares (the rest are test). */
export function scenarioCounts(n: number, shares: Pick<SplitSpec, 'trainShare' | 'validationShare'> = {}): { update: number; validation: number } {
  let train = Math.min(n, Math.round(n * (shares.trainShare ?? 0.2)));
  // A scenario that trains at all trains with one task learned from and one asked about, when it has two.
  if (train >= 1) train = Math.max(train, Math.min(n, 2));
  if (train < 2) return { update: train, validation: 0 };
  const validation = Math.min(train - 1, Math.max(1, Math.round(train * (shares.validationShare ?? DEFAULT_VALIDATION_SHARE))));
  return { update: train - validation, validation };
}

/** The default totals for `n` tasks: a sixth update; validation a quarter of the rest, at least 30, at most half. */
export function defaultCounts(n: number): { update: number; validation: number } {
  const update = Math.round(n * DEFAULT_UPDATE_SHARE);
  const questions = n - update;
  return { update, validation: Math.min(Math.max(DEFAULT_MIN_VALIDATION, Math.round(questions / 4)), Math.floor(questions / 2)) };
}

/**
 * `total` shared among strata of `sizes` in proportion, each first given its floor (never past its cap): largest
 * remainders take what is left. The result never exceeds a cap; it sums to `total` when the caps allow.
 */
export function apportion(sizes: readonly number[], total: number, floor: (n: number) => number, cap: (n: number) => number): number[] {
  const caps = sizes.map(cap);
  const out = sizes.map((n, i) => Math.min(floor(n), caps[i] as number));
  // Floors that would pass the total go to the largest strata only.
  const bySize = sizes.map((n, i) => ({ n, i })).sort((a, b) => a.n - b.n || b.i - a.i);
  for (const { i } of bySize) {
    if (out.reduce((a, b) => a + b, 0) <= total) break;
    out[i] = 0;
  }
  const sum = sizes.reduce((a, b) => a + b, 0);
  let left = total - out.reduce((a, b) => a + b, 0);
  if (left <= 0 || sum === 0) return out;
  // The share each stratum would have, and how far it is from it; a few rounds fill what the caps leave.
  for (let round = 0; left > 0 && round < 4; round++) {
    const target = out.reduce((a, b) => a + b, 0) + left;
    const want = sizes.map((n, i) => Math.max(0, Math.min(caps[i] as number, (target * n) / sum) - (out[i] as number)));
    const whole = want.map(Math.floor);
    for (const [i, w] of whole.entries()) {
      const take = Math.min(w, left);
      out[i] = (out[i] as number) + take;
      left -= take;
    }
    const order = want.map((w, i) => ({ i, r: w - (whole[i] as number) })).sort((a, b) => b.r - a.r || a.i - b.i);
    for (const { i } of order) {
      if (left <= 0) break;
      if ((out[i] as number) < (caps[i] as number)) {
        out[i] = (out[i] as number) + 1;
        left--;
      }
    }
  }
  return out;
}

/** Roles of ids ranked by the seeded hash: the first `counts.update` update, the next `counts.validation` validation, the rest test. */
export function rankedRoles(ids: readonly string[], seed: number, counts: { update: number; validation: number }): Map<string, TaskRole> {
  const ranked = ids.map((id) => ({ id, h: taskHash(seed, id) })).sort((a, b) => a.h - b.h || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const roles = new Map<string, TaskRole>();
  ranked.forEach(({ id }, k) => roles.set(id, k < counts.update ? 'update' : k < counts.update + counts.validation ? 'validation' : 'test'));
  return roles;
}

export interface RoleTask {
  id: string;
  scenario: string;
  world?: string | undefined;
  role?: TaskRole | undefined;
}

/** Every task's role: its own when it has one, else assigned per stratum among the tasks without one. */
export function assignRoles(tasks: readonly RoleTask[], seed: number, split: SplitSpec = {}): TaskRole[] {
  // Keyed by data (ids, worlds, scenarios): a Map, never a plain object.
  const strata = new Map<string, string[]>();
  for (const t of tasks) {
    if (t.role) continue;
    const key = JSON.stringify([t.world ?? '', t.scenario]);
    const ids = strata.get(key);
    if (ids) ids.push(t.id);
    else strata.set(key, [t.id]);
  }
  const groups = [...strata.values()];
  const assigned = new Map<string, TaskRole>();
  for (const [i, counts] of stratumCounts(groups.map((g) => g.length), split).entries()) {
    for (const [id, role] of rankedRoles(groups[i] as string[], seed, counts)) assigned.set(id, role);
  }
  return tasks.map((t) => t.role ?? (assigned.get(t.id) as TaskRole));
}

/** Update and validation counts per stratum, as the split says. */
export function stratumCounts(sizes: readonly number[], split: SplitSpec): { update: number; validation: number }[] {
  if (split.trainShare !== undefined || split.validationShare !== undefined) return sizes.map((n) => scenarioCounts(n, split));
  const total = sizes.reduce((a, b) => a + b, 0);
  const want = split.update !== undefined || split.validation !== undefined ? { update: split.update ?? 0, validation: split.validation ?? 0 } : defaultCounts(total);
  // A stratum of three or more is learned from and asked about, and keeps two tasks to ask (validation and test);
  // where strata are too small for the totals that way (many scenarios of one or two tasks), they give up the rule.
  const update = filled(sizes, want.update, (n) => (n >= 3 ? 1 : 0), (n) => (n >= 3 ? n - 2 : 0), (n) => n - 1);
  const questions = sizes.map((n, i) => n - (update[i] as number));
  const validation = filled(questions, want.validation, (q) => (q >= 2 ? 1 : 0), (q) => (q >= 2 ? q - 1 : 0), (q) => q);
  return sizes.map((_, i) => ({ update: update[i] as number, validation: validation[i] as number }));
}

/** `apportion` under `cap`, then, for what it could not place, under the looser `loose` cap. */
function filled(sizes: readonly number[], total: number, floor: (n: number) => number, cap: (n: number) => number, loose: (n: number) => number): number[] {
  const first = apportion(sizes, total, floor, cap);
  const short = total - first.reduce((a, b) => a + b, 0);
  if (short <= 0) return first;
  const more = apportion(
    sizes.map((n, i) => Math.max(0, loose(n) - (first[i] as number))),
    short,
    () => 0,
    (n) => n,
  );
  return first.map((x, i) => x + (more[i] as number));
}
