// After the budget: the selected program (best lower confidence bound by default) and, unless told not to, its
// score on the held-out test split beside the root's and the seeds'. Its lines carry step -1, so they can never be
// mistaken for a step of the budget (which a resume may raise).
import type { JournalEvent } from '../../search-trees/journal.ts';
import { evaluateNode } from './evaluate-node.ts';
import type { SearchRun } from './search-run.ts';
import { selectFinal, selectionScore } from './selection.ts';
import type { TreeNode } from './tree.ts';

export const FINAL_STEP = -1;

export async function finalPhase(run: SearchRun): Promise<TreeNode> {
  const { tree, options } = run;
  if (tree.evaluated().length === 0) throw new Error(`no program has a score yet${run.stopped ? `: ${run.stopped}` : ''}`);
  const winner = selectFinal(tree, options.ucb, options.selection);
  // Redone when this session ran steps (a resume with a raised budget), so the report is about the final tree.
  // A search stopped by infrastructure, or by the user, has not finished: its resume does the final phase.
  if (run.failure || run.interrupted || (run.ranSteps === 0 && finalDone(run.pastEvents))) return winner;
  run.log({ type: 'final', selection: options.selection, winner: winner.id, lcb: selectionScore(tree, winner, options.ucb, 'lcb'), validation: tree.q(winner) });
  const tested = await run.runStep(FINAL_STEP, async () => {
    if (!options.testWinner || run.stopped) return;
    const toTest = [winner, tree.root, ...[...tree.nodes.values()].filter((n) => n.kind === 'seed')];
    for (const node of new Set(toTest)) if (node.testScore === undefined) await evaluateNode(run, node, 'test', FINAL_STEP);
  });
  if (tested) run.log({ type: 'step-done', step: FINAL_STEP });
  return winner;
}

function finalDone(events: JournalEvent[]): boolean {
  return events.some((e) => e.type === 'step-done' && e.step === FINAL_STEP);
}
