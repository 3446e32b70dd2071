// Seeded, stable train/test assignment: a task is train when hash(seed, its id) < share. Its side depends on
// nothing else, so adding data never moves a task. Because the hash is uniform, every stratum (category,
// template, site) gets about the same share; `splitReport` shows the realised share per stratum.
import { rankedRoles, taskHash } from '../engine/environment/roles.ts';
import { DEFAULT_MIN_EVAL_TASKS } from '../engine/evaluate/task-sample.ts';
import type { TaskRole } from '../engine/environment/task-spec.ts';
import { keyedObject } from '../foundation/keyed-object.ts';

export { taskHash };

export interface SplitOptions {
  seed: number;
  /** Share that goes to train (default 0.2: about 1:4 train:test). */
  trainShare?: number;
}

export function isTrain(id: string, options: SplitOptions): boolean {
  return taskHash(options.seed, id) < (options.trainShare ?? 0.2);
}

/**
 * The train questions of a history benchmark: those whose seeded hash is under the train share. When the benchmark
 * states no share and the default one leaves validation under 30 questions, the lowest hashes are taken up to 30 (at
 * most half of the questions), so a benchmark of 90 questions or more has 30 to validate on; a question of a large
 * benchmark keeps its side when data is added.
 */
export function trainIds(ids: readonly string[], options: SplitOptions & { stated: boolean }): Set<string> {
  const train = new Set(ids.filter((id) => isTrain(id, options)));
  const want = Math.min(DEFAULT_MIN_EVAL_TASKS, Math.floor(ids.length / 2));
  if (options.stated || train.size >= want) return train;
  const ranked = [...new Set(ids)].map((id) => ({ id, h: taskHash(options.seed, id) })).sort((a, b) => a.h - b.h || (a.id < b.id ? -1 : 1));
  for (const { id } of ranked.slice(0, want)) train.add(id);
  return train;
}

/** Train and test counts per stratum (`train`: which ids are train; default the seeded share). */
export function splitReport<T>(
  items: T[],
  idOf: (t: T) => string,
  stratumOf: (t: T) => string,
  options: SplitOptions,
  train: (id: string) => boolean = (id) => isTrain(id, options),
): Record<string, { train: number; test: number }> {
  const out = keyedObject<{ train: number; test: number }>();
  for (const item of items) {
    const s = (out[stratumOf(item)] ??= { train: 0, test: 0 });
    if (train(idOf(item))) s.train++;
    else s.test++;
  }
  return out;
}

/**
 * Roles of one template's instances as the built-in task catalogs (visual, web) give them: ranked by the seeded
 * hash, the first share (at least one) train, of which the first half (rounded up) update and the rest validation;
 * validation grows to `minValidation` when asked (never past half of what update leaves, so test stays the larger).
 * The update instances do not depend on `minValidation`, so stored update episodes stay valid.
 */
export function templateRoles(ids: readonly string[], seed: number, trainShare: number, minValidation = 0): Map<string, TaskRole> {
  const train = Math.min(ids.length, Math.max(1, Math.round(ids.length * trainShare)));
  const update = Math.ceil(train / 2);
  const validation = Math.min(Math.max(train - update, minValidation), Math.max(train - update, Math.floor((ids.length - update) / 2)));
  return rankedRoles(ids, seed, { update, validation });
}

/**
 * Validation instances per template so that a catalog of `templates` templates has at least `total` validation
 * tasks: every evaluation can then score 30 tasks (engine/evaluate/task-sample.ts), enough to tell programs apart.
 */
export function validationPerTemplate(templates: number, total = DEFAULT_MIN_EVAL_TASKS): number {
  return templates > 0 ? Math.ceil(total / templates) : 0;
}

/** A built-in catalog's settings with their defaults: seed 0, `instances` instances per template, a fifth to train. */
export function catalogSettings(o: { seed?: number; instances?: number; trainShare?: number }, instances: number): { seed: number; instances: number; trainShare: number } {
  return { seed: o.seed ?? 0, instances: o.instances ?? instances, trainShare: o.trainShare ?? 0.2 };
}
