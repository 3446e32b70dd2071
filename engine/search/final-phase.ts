// After the budget: which program the search hands over, and its score on the held-out test split beside the root's
// and the seeds'. Where the environment is deterministic, the leading candidates (the best by the selection rule and
// the best seed) are first scored on validation samples they have not seen (within an allowance), so they are
// compared on more of the same validation. The pick never ends below where the search started, takes a written child
// only when validation resolves it as better (choose), and the programs it cannot be told apart from are named.
// Its lines carry step -1, so they can never be mistaken for a step of the budget (which a resume may raise).
import type { Evaluations } from './evaluate-node.ts';
import type { ProgramStore } from './program-store.ts';
import type { RunOptions } from './run-options.ts';
import type { SearchJournal } from './search-journal.ts';
import { selectFinal, selectionScore } from './selection.ts';
import type { StopControl } from './stop-control.ts';
import { pairedDifference, selectionRewards, type Tie, taskRewards, tiesOf } from './ties.ts';
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

export interface FinalParts {
  journal: SearchJournal;
  stops: StopControl;
  evaluations: Evaluations;
  programs: ProgramStore;
  options: Pick<RunOptions, 'budget' | 'ucb' | 'selection' | 'testWinner'>;
}

export async function finalPhase(p: FinalParts): Promise<FinalChoice> {
  const { journal, stops, options } = p;
  const { tree } = journal.state;
  const stop = stops.state;
  if (tree.evaluated().length === 0)
    throw new Error(`no program has a score yet${stop.kind !== 'running' ? `: ${stop.reason}` : ''}`);
  // Redone when this session ran steps (a resume with a raised budget), so the report is about the final tree.
  // A search stopped by infrastructure, or by the user, has not finished: its resume does the final phase.
  if (
    stop.kind === 'infrastructure' ||
    stop.kind === 'interrupted' ||
    (journal.state.sessionSteps === 0 && journal.state.finalDone)
  )
    return onSelection(p, choose(p), journal.state.selections);
  let choice: FinalChoice | undefined;
  const finished = await stops.runStep(FINAL_STEP, async () => {
    if (!stops.stopped) await confirm(p);
    choice = choose(p);
    // The held-out validation decides among the leading candidates (selection-holdout.ts); the meta agent never saw it.
    const held = stops.stopped ? [] : await p.evaluations.sampler.selectionIds();
    if (held.length) {
      const scores = new Map<string, number | null>();
      for (const node of selectionCandidates(p, choice.winner))
        scores.set(node.id, await p.evaluations.scoreOnSelection(node, held, FINAL_STEP));
      choice = onSelection(p, choice, scores);
    }
    const { winner, tie } = choice;
    journal.record({
      type: 'final',
      selection: options.selection,
      winner: winner.id,
      lcb: selectionScore(tree, winner, options.ucb, 'lcb'),
      validation: tree.q(winner),
      ...(tie ? { tied: tie.nodes, tieNote: tie.note.slice(0, 2000) } : {}),
    });
    if (!options.testWinner || stops.stopped) return;
    const toTest = [winner, tree.root, ...[...tree.nodes.values()].filter((n) => n.kind === 'seed')];
    for (const node of new Set(toTest))
      if (node.testScore === undefined) await p.evaluations.evaluate(node, 'test', FINAL_STEP);
  });
  if (finished) journal.record({ type: 'step-done', step: FINAL_STEP });
  return choice ?? choose(p);
}

/**
 * The pick and its ties, from the tree as it stands: the best by the selection rule among programs at least as good on
 * validation as the best starting program — and a written child only when its advantage over that program, task by
 * task on the tasks both were scored on, is more than one standard error (the best of many children on one validation
 * set is lucky as often as good; an edge smaller than the noise is not taken for one). Ties are named at 95% (ties.ts),
 * so a pick can be better by a standard error and still be named as not told apart.
 */
function choose(p: FinalParts): FinalChoice {
  const { options } = p;
  const { tree } = p.journal.state;
  const { folder } = p.programs;
  const start = selectFinal(tree, options.ucb, options.selection, (n) => n.kind !== 'child');
  const startRewards = taskRewards(folder, start);
  const ranked = tree
    .evaluated()
    .filter((n) => tree.q(n) >= tree.q(start) - 1e-12)
    .sort(
      (a, b) =>
        selectionScore(tree, b, options.ucb, options.selection) -
        selectionScore(tree, a, options.ucb, options.selection),
    );
  const winner =
    ranked.find((n) => {
      if (n.kind !== 'child') return n === start;
      const d = pairedDifference(taskRewards(folder, n), startRewards);
      return d.tasks > 0 && d.mean > d.halfWidth / 1.96 + 1e-9;
    }) ?? start;
  const tie = tiesOf(tree, folder, winner);
  return { winner, ...(tie ? { tie } : {}) };
}

/** The choice's winner and the best few by the selection rule and the best seed: what the held-out tasks decide among. */
function selectionCandidates(p: FinalParts, winner: TreeNode): TreeNode[] {
  const { tree } = p.journal.state;
  const { ucb, selection } = p.options;
  const byRule = tree
    .evaluated()
    .sort(
      (a, b) =>
        selectionScore(tree, b, ucb, selection) - selectionScore(tree, a, ucb, selection) || a.id.localeCompare(b.id),
    );
  const seeds = tree
    .evaluated()
    .filter((n) => n.kind !== 'child')
    .sort((a, b) => tree.q(b) - tree.q(a) || a.id.localeCompare(b.id));
  return [...new Set([winner, ...byRule.slice(0, CONFIRMED), ...seeds.slice(0, 1)])];
}

/**
 * The pick among the candidates scored on the held-out tasks: the best score there (the validation choice on a tie,
 * then the order of the candidates), when it is better than the validation choice there by more than a standard
 * error, task by task. Otherwise, and without held-out scores, the validation choice stands.
 */
function onSelection(p: FinalParts, choice: FinalChoice, scores: ReadonlyMap<string, number | null>): FinalChoice {
  const { tree } = p.journal.state;
  const { folder } = p.programs;
  const scored = [...scores].filter((e): e is [string, number] => e[1] !== null && tree.nodes.has(e[0]));
  if (!scored.length) return choice;
  const mine = scores.get(choice.winner.id);
  const [bestId, best] = scored.reduce((a, b) => (b[1] > a[1] + 1e-12 ? b : a), [
    choice.winner.id,
    mine ?? -Infinity,
  ] as [string, number]);
  const kept = { ...choice, ...(mine !== undefined ? { selection: mine } : {}) };
  if (bestId === choice.winner.id) return kept;
  // The held-out tasks are few (a fraction of validation): a rival replaces the validation's choice only when its
  // advantage there, task by task, is more than one standard error — the rule a child meets to replace a seed.
  if (mine !== undefined && mine !== null) {
    const d = pairedDifference(selectionRewards(folder, bestId), selectionRewards(folder, choice.winner.id));
    if (!(d.tasks > 0 && d.mean > d.halfWidth / 1.96 + 1e-9)) return kept;
  }
  const winner = tree.get(bestId);
  const tie = tiesOf(tree, folder, winner);
  return { winner, ...(tie ? { tie } : {}), selection: best };
}

/**
 * Scores the candidates on validation samples they have not seen, the one with the fewest evaluations first (so they
 * are compared on as much of the same validation as the allowance gives): a quarter of the budget, and at least two.
 */
async function confirm(p: FinalParts): Promise<void> {
  const { tree } = p.journal.state;
  const candidates = confirmationSet(tree, p.options);
  for (let left = Math.max(2, Math.ceil(p.options.budget / 4)); left > 0; left--) {
    const next = candidates.filter((n) => tree.canEvaluate(n)).sort((a, b) => a.scores.length - b.scores.length)[0];
    if (!next) return;
    await p.evaluations.evaluate(next, 'train', FINAL_STEP);
  }
}

/** The best few by the selection rule and the best seed, when a sample may still be scored (deterministic environments). */
function confirmationSet(tree: SearchTree, { ucb, selection }: FinalParts['options']): TreeNode[] {
  if (!tree.deterministic) return [];
  const byRule = tree
    .evaluated()
    .sort(
      (a, b) =>
        selectionScore(tree, b, ucb, selection) - selectionScore(tree, a, ucb, selection) || a.id.localeCompare(b.id),
    );
  const seeds = tree
    .evaluated()
    .filter((n) => n.kind !== 'child')
    .sort((a, b) => tree.q(b) - tree.q(a) || a.id.localeCompare(b.id));
  return [...new Set([...byRule.slice(0, CONFIRMED), ...seeds.slice(0, 1)])].filter((n) => tree.canEvaluate(n));
}
