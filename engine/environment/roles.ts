// Roles of tasks that come without one: per scenario, tasks are ranked by a seeded hash of their id and the first
// few go to train (the update batch first, then the validation batch), the rest to test. Stratified by design: every
// scenario with training tasks has at least one update and one validation task, so the search learns from and is
// asked about each kind. Stable: the same seed and the same tasks give the same roles, in any order.
import { createHash } from 'node:crypto';
import type { TaskRole } from './task-spec.ts';

/** A uniform number in [0, 1) from the seed and a task id. */
export function taskHash(seed: number, id: string): number {
  const h = createHash('sha256').update(`${seed}\u0000${id}`).digest();
  return h.readUInt32BE(0) / 2 ** 32;
}

export interface RoleShares {
  /** Share of a scenario's tasks that go to train (default 0.2). */
  trainShare?: number;
  /** Share of train that is validation (default 0.5). */
  validationShare?: number;
}

export const DEFAULT_TRAIN_SHARE = 0.2;
export const DEFAULT_VALIDATION_SHARE = 0.5;

/** How many of a scenario's `n` tasks go to update and to validation (the rest are test). */
export function scenarioCounts(n: number, shares: RoleShares = {}): { update: number; validation: number } {
  let train = Math.min(n, Math.round(n * (shares.trainShare ?? DEFAULT_TRAIN_SHARE)));
  // A scenario that trains at all trains with one task learned from and one asked about, when it has two.
  if (train >= 1) train = Math.max(train, Math.min(n, 2));
  if (train < 2) return { update: train, validation: 0 };
  const validation = Math.min(train - 1, Math.max(1, Math.round(train * (shares.validationShare ?? DEFAULT_VALIDATION_SHARE))));
  return { update: train - validation, validation };
}

/** Roles of ids ranked by the seeded hash: the first `counts.update` update, the next `counts.validation` validation, the rest test. */
export function rankedRoles(ids: readonly string[], seed: number, counts: { update: number; validation: number }): Map<string, TaskRole> {
  const ranked = ids.map((id) => ({ id, h: taskHash(seed, id) })).sort((a, b) => a.h - b.h || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const roles = new Map<string, TaskRole>();
  ranked.forEach(({ id }, k) => roles.set(id, k < counts.update ? 'update' : k < counts.update + counts.validation ? 'validation' : 'test'));
  return roles;
}

/** Every task's role: its own when it has one, else assigned per scenario among the tasks without one. */
export function assignRoles(tasks: readonly { id: string; scenario: string; role?: TaskRole | undefined }[], seed: number, shares: RoleShares = {}): TaskRole[] {
  const open = new Map<string, string[]>();
  for (const t of tasks) {
    if (t.role) continue;
    const ids = open.get(t.scenario);
    if (ids) ids.push(t.id);
    else open.set(t.scenario, [t.id]);
  }
  const assigned = new Map<string, TaskRole>();
  for (const ids of open.values()) for (const [id, role] of rankedRoles(ids, seed, scenarioCounts(ids.length, shares))) assigned.set(id, role);
  return tasks.map((t) => t.role ?? (assigned.get(t.id) as TaskRole));
}
