// After the budget: which program the search hands over, and its score on the held-out test split beside the root's
// and the seeds'. Where the environment is deterministic, the leading candidates (the best by the selection rule and
// the best seed) are first scored on validation samples they have not seen (within an allowance), so they are
// compared on more of the same validation. The pick never ends below where the search started, takes a written child
// only when validation resolves it as better (choose), and the programs it cannot be told apart from are named.
// Its lines carry step -1, so they can never be mistaken for a step of the budget (which a resume may raise).
import type { JournalEvent } from './journal-events.ts';
import { evaluateNode } from './evaluate-node.ts';
import type { SearchRun } from './search-run.ts';
import { selectFinal, selectionScore } from './selection.ts';
import { pairedDifference, type Tie, taskRewards, tiesOf } from './ties.ts';
import { pastSelectionScores, scoreOnSelection } from './final-selection.ts';
import type { SearchTree, TreeNode } from './tree.ts';

export const FINAL_STEP = -1;

/** Candidates scored on the rest of validation before the pick: the best few by the selection rule. */
const CONFIRMED = 3;

export interface FinalChoice {
  winner: TreeNode;
  tie?: Tie;
  /** The winner's score on the validation held out for selection, when the search held some out. */
  selection?: number | null;
}

export async function finalPhase(run: SearchRun): Promise<FinalChoice> {
  const { tree, options } = run;
  if (tree.evaluated().length === 0) throw new Error(`no program has a score yet${run.stopped ? `: ${run.stopped}` : ''}`);
  // Redone when this session ran steps (a resume with a raised budget), so the report is about the final tree.
  // A search stopped by infrastructure, or by the user, has not finished: its resume does the final phase.
  if (run.failure || run.interrupted || (run.ranSteps === 0 && finalDone(run.pastEvents))) return onSelection(run, choose(run), pastSelectionScores(run.pastEvents));
  let choice: FinalChoice | undefined;
  const finished = await run.runStep(FINAL_STEP, async () => {
    if (!run.stopped) await confirm(run);
    choice = choose(run);
    // The held-out validation decides among the leading candidates (selection-holdout.ts); the meta agent never saw it.
    const held = run.stopped ? [] : await run.sampler.selectionIds();
    if (held.length) {
      const scores = new Map<string, number | null>();
      for (const node of selectionCandidates(run, choice.winner)) scores.set(node.id, await scoreOnSelection(run, node, held, FINAL_STEP));
      choice = onSelection(run, choice, scores);
    }
    const { winner, tie } = choice;
    run.log({ type: 'final', selection: options.selection, winner: winner.id, lcb: selectionScore(tree, winner, options.ucb, 'lcb'), validation: tree.q(winner), ...(tie ? { tied: tie.nodes, tieNote: tie.note.slice(0, 2000) } : {}) });
    if (!options.testWinner || run.stopped) return;
    const toTest = [winner, tree.root, ...[...tree.nodes.values()].filter((n) => n.kind === 'seed')];
    for (const node of new Set(toTest)) if (node.testScore === undefined) await evaluateNode(run, node, 'test', FINAL_STEP);
  });
  if (finished) run.log({ type: 'step-done', step: FINAL_STEP });
  return choice ?? choose(run);
}

/**
 * The pick and its ties, from the tree as it stands: the best by the selection rule among programs at least as good on
 * validation as the best starting program — and a written child only when its advantage over that program, task by
 * task on the tasks both were scored on, is more than one standard error (the best of many children on one validation
 * set is lucky as often as good; an edge smaller than the noise is not taken for one). Ties are named at 95% (ties.ts),
 * so a pick can be better by a standard error and still be named as not told apart.
 */
function choose(run: SearchRun): FinalChoice {
  const { tree, options } = run;
  const start = selectFinal(tree, options.ucb, options.selection, -Infinity, (n) => n.kind !== 'child');
  const startRewards = taskRewards(run, start);
  const ranked = tree
    .evaluated()
    .filter((n) => tree.q(n) >= tree.q(start) - 1e-12)
    .sort((a, b) => selectionScore(tree, b, options.ucb, options.selection) - selectionScore(tree, a, options.ucb, options.selection));
  const winner =
    ranked.find((n) => {
      if (n.kind !== 'child') return n === start;
      const d = pairedDifference(taskRewards(run, n), startRewards);
      return d.tasks > 0 && d.mean > d.halfWidth / 1.96 + 1e-9;
    }) ?? start;
  const tie = tiesOf(run, winner);
  return { winner, ...(tie ? { tie } : {}) };
}

/** The choice's winner and the best few by the selection rule and the best seed: what the held-out tasks decide among. */
function selectionCandidates(run: SearchRun, winner: TreeNode): TreeNode[] {
  const { tree } = run;
  const { ucb, selection } = run.options;
  const byRule = tree.evaluated().sort((a, b) => selectionScore(tree, b, ucb, selection) - selectionScore(tree, a, ucb, selection) || a.id.localeCompare(b.id));
  const seeds = tree.evaluated().filter((n) => n.kind !== 'child').sort((a, b) => tree.q(b) - tree.q(a) || a.id.localeCompare(b.id));
  return [...new Set([winner, ...byRule.slice(0, CONFIRMED), ...seeds.slice(0, 1)])];
}

/**
 * The pick among the candidates scored on the held-out tasks: the best score there (the validation choice on a tie,
 * then the order of the candidates). Without held-out scores, the validation choice stands.
 */
function onSelection(run: SearchRun, choice: FinalChoice, scores: ReadonlyMap<string, number | null>): FinalChoice {
  const scored = [...scores].filter((e): e is [string, number] => e[1] !== null && run.tree.nodes.has(e[0]));
  if (!scored.length) return choice;
  const mine = scores.get(choice.winner.id);
  const [bestId, best] = scored.reduce((a, b) => (b[1] > a[1] + 1e-12 ? b : a), [choice.winner.id, mine ?? -Infinity] as [string, number]);
  if (bestId === choice.winner.id) return { ...choice, ...(mine !== undefined ? { selection: mine } : {}) };
  const winner = run.tree.get(bestId);
  const tie = tiesOf(run, winner);
  return { winner, ...(tie ? { tie } : {}), selection: best };
}

/**
 * Scores the candidates on validation samples they have not seen, the one with the fewest evaluations first (so they
 * are compared on as much of the same validation as the allowance gives): at most a quarter of the budget, and two.
 */
async function confirm(run: SearchRun): Promise<void> {
  const { tree } = run;
  const candidates = confirmationSet(tree, run);
  for (let left = Math.max(2, Math.ceil(run.options.budget / 4)); left > 0; left--) {
    const next = candidates.filter((n) => tree.canEvaluate(n)).sort((a, b) => a.scores.length - b.scores.length)[0];
    if (!next) return;
    await evaluateNode(run, next, 'train', FINAL_STEP);
  }
}

/** The best few by the selection rule and the best seed, when a sample may still be scored (deterministic environments). */
function confirmationSet(tree: SearchTree, run: SearchRun): TreeNode[] {
  if (!Number.isFinite(tree.evaluationLimit)) return [];
  const { ucb, selection } = run.options;
  const byRule = tree.evaluated().sort((a, b) => selectionScore(tree, b, ucb, selection) - selectionScore(tree, a, ucb, selection) || a.id.localeCompare(b.id));
  const seeds = tree.evaluated().filter((n) => n.kind !== 'child').sort((a, b) => tree.q(b) - tree.q(a) || a.id.localeCompare(b.id));
  return [...new Set([...byRule.slice(0, CONFIRMED), ...seeds.slice(0, 1)])].filter((n) => tree.canEvaluate(n));
}

function finalDone(events: JournalEvent[]): boolean {
  return events.some((e) => e.type === 'step-done' && e.step === FINAL_STEP);
}
