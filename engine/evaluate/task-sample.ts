// Which tasks an evaluation scores: a search's validation sample, or eval's --tasks. Paired: every node's k-th
// evaluation draws sample k, so a child and its parent are compared on the same tasks. Large enough to tell programs apart: a share of the validation tasks,
// but never fewer than `minTasks` (all of them when there are fewer), since two evaluations of one program on 9
// tasks differed by 0.05 and drowned the differences the search looks for.
import { taskHash } from '../environment/roles.ts';

export const DEFAULT_MIN_EVAL_TASKS = 30;
/** The share of the validation tasks an evaluation scores (at least DEFAULT_MIN_EVAL_TASKS of them). */
export const DEFAULT_EVAL_FRACTION = 0.5;

/** The filter of sample `sampleSeed` over the validation task ids, or undefined for all of them. */
export function evalSample(ids: readonly string[], sampleSeed: number, fraction: number, minTasks: number | undefined): ((id: string) => boolean) | undefined {
  // Runs written before the minimum drew each task with probability `fraction`: their resumes keep that rule.
  if (minTasks === undefined) return fraction < 1 ? (id) => taskHash(sampleSeed, id) < fraction : undefined;
  const size = Math.min(ids.length, Math.max(minTasks, Math.round(fraction * ids.length)));
  if (size >= ids.length) return undefined;
  const ranked = [...new Set(ids)].map((id) => ({ id, h: taskHash(sampleSeed, id) })).sort((a, b) => a.h - b.h || (a.id < b.id ? -1 : 1));
  const keep = new Set(ranked.slice(0, size).map((x) => x.id));
  return (id) => keep.has(id);
}
