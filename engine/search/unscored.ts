// An evaluation that scored nothing — infrastructure failed every task (a dead API, a crashed browser), or no task
// was there to score — says nothing about the program. The search records it apart (score null, with the reason),
// never as a 0: it joins no mean, no n(v), no N. The rule that keeps this bounded:
//   - a node whose only validation evaluations are unscored is owed a first score: the next step re-evaluates it,
//     ahead of the policy (a re-evaluation that scored nothing leaves the tree as it was, so the policy itself picks
//     again);
//   - the step is spent either way (its time and model calls were);
//   - MAX_UNSCORED_IN_A_ROW unscored validation evaluations in a row stop the search with a clear message, rather
//     than spinning through the budget against a dead service; `--resume` carries on once it is back.
import type { EvaluationResult } from '../evaluate/evaluate.ts';
import type { Choice } from './policy.ts';
import type { SearchTree } from './tree.ts';

export const MAX_UNSCORED_IN_A_ROW = 3;

/** Reasons are journaled; an upstream error message can be long. */
const MAX_REASON_CHARS = 500;

/** Why an evaluation scored nothing, or undefined when it has a score. */
export function unscoredReason(result: EvaluationResult): string | undefined {
  if (result.score !== null) return undefined;
  const { tasks } = result;
  if (tasks.length === 0) return 'no task was evaluated (the sample was empty)';
  const infra = tasks.filter((t) => t.infraError);
  const first = infra[0]?.infraError;
  const reason = infra.length === tasks.length && first ? `infrastructure failed all ${tasks.length} tasks: ${first}` : `none of ${tasks.length} tasks could be scored`;
  return reason.slice(0, MAX_REASON_CHARS);
}

/** The step's action when a node is owed a first score; undefined when none is. */
export function retryChoice(tree: SearchTree): (Choice & { retry: string }) | undefined {
  // One already being evaluated again (by a step in flight) is not retried twice at once.
  const node = tree.awaitingFirstScore().find((n) => tree.visits(n) === n.scores.length);
  if (!node) return undefined;
  const last = node.unscored?.filter((u) => u.split === 'train').at(-1);
  // No policy weighed this action: its score is 0 and it has no candidates.
  return {
    action: { kind: 'evaluate', node: node.id, score: 0 },
    candidates: [],
    retry: `${node.id} has no score yet: ${node.unscored?.length ?? 0} evaluation(s) scored nothing (last: ${last?.reason ?? 'unknown'})`.slice(0, MAX_REASON_CHARS),
  };
}

export function unscoredStopReason(inARow: number, lastReason: string): string {
  return `${inARow} evaluations in a row scored nothing (last: ${lastReason}); fix the cause (a service that is down, say) and continue with --resume`;
}
