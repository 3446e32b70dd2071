// Rules that read an evaluation and say what is wrong with a memory, and in which direction its settings should
// move: `more` (return more, or less strictly), `less` (smaller, faster payloads), or `explore`.
import type { EvaluationResult } from '../../evaluate/evaluate.ts';

export type Direction = 'more' | 'less' | 'explore';

export interface Finding {
  rule: string;
  detail: string;
  direction: Direction;
  weight: number;
}

/** A scenario (a cluster of tasks) that lags the whole: 0.1 below the overall score, on at least 3 scored tasks. */
export function weakScenario(s: { tasks: number; score: number | null }, overall: number): boolean {
  return s.score !== null && s.tasks >= 3 && s.score < overall - 0.1;
}

export function diagnose(evaluation: EvaluationResult | undefined, budgetChars: number): Finding[] {
  if (!evaluation) return [{ rule: 'no-evidence', detail: 'no evaluation to read', direction: 'explore', weight: 1 }];
  const tasks = evaluation.tasks.filter((t) => t.reward !== null);
  const n = Math.max(1, tasks.length);
  const out: Finding[] = [];
  const empty = tasks.filter((t) => t.payloadChars === 0).length / n;
  if (empty > 0.05)
    out.push({
      rule: 'empty-payloads',
      detail: `${(empty * 100).toFixed(0)}% of payloads are empty`,
      direction: 'more',
      weight: 2 * empty,
    });
  const truncated = tasks.filter((t) => t.truncated).length / n;
  if (truncated > 0.05)
    out.push({
      rule: 'truncated-payloads',
      detail: `${(truncated * 100).toFixed(0)}% of payloads were cut to the budget`,
      direction: 'less',
      weight: 2 * truncated,
    });
  const fill = evaluation.stats.meanPayloadChars / budgetChars;
  if (fill < 0.5)
    out.push({
      rule: 'unused-budget',
      detail: `payloads use ${(fill * 100).toFixed(0)}% of the budget on average`,
      direction: 'more',
      weight: 1 - fill,
    });
  // p50, not p95: the slowest retrieves are the first ones, embedding queries nothing has cached yet.
  if (evaluation.stats.retrieveP50Ms > 200)
    out.push({
      rule: 'slow-retrieve',
      detail: `retrieve p50 is ${evaluation.stats.retrieveP50Ms.toFixed(0)} ms`,
      direction: 'less',
      weight: 0.5,
    });
  const failures = tasks.filter((t) => t.programError).length / n;
  if (failures > 0)
    out.push({
      rule: 'program-errors',
      detail: `${(failures * 100).toFixed(0)}% of tasks failed in the program`,
      direction: 'less',
      weight: 1 + failures,
    });
  const score = evaluation.score ?? 0;
  for (const [scenario, s] of Object.entries(evaluation.stats.byScenario)) {
    if (weakScenario(s, score)) {
      out.push({
        rule: 'weak-cluster',
        detail: `cluster "${scenario}" scores ${(s.score as number).toFixed(2)} against ${score.toFixed(2)} overall`,
        direction: fill < 0.9 ? 'more' : 'explore',
        weight: 0.5,
      });
    }
  }
  out.push({ rule: 'explore', detail: 'try a nearby setting', direction: 'explore', weight: 0.5 });
  return out;
}
