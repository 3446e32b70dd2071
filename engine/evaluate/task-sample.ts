// A seeded sample of a split's tasks (eval's --tasks; a search deals its validation into disjoint samples instead,
// engine/search/validation-sampler.ts): a share of the tasks, but never fewer than `minTasks` (all of them when there
// are fewer), since two evaluations of one program on 9 tasks differed by 0.05 and drowned the differences a
// comparison looks for. The same seed draws the same sample whatever the order of the ids.
import { taskHash } from '../environment/roles.ts';

export const DEFAULT_MIN_EVAL_TASKS = 30;
/** The share of the validation tasks an evaluation scores (at least DEFAULT_MIN_EVAL_TASKS of them). */
export const DEFAULT_EVAL_FRACTION = 0.5;

/** The filter of sample `sampleSeed` over the validation task ids, or undefined for all of them. */
export function evalSample(ids: readonly string[], sampleSeed: number, fraction: number, minTasks: number): ((id: string) => boolean) | undefined {
  const size = Math.min(ids.length, Math.max(minTasks, Math.round(fraction * ids.length)));
  if (size >= ids.length) return undefined;
  const ranked = [...new Set(ids)].map((id) => ({ id, h: taskHash(sampleSeed, id) })).sort((a, b) => a.h - b.h || (a.id < b.id ? -1 : 1));
  const keep = new Set(ranked.slice(0, size).map((x) => x.id));
  return (id) => keep.has(id);
}
