// What a search reports when it ends: the action mix, the generation outcomes, the selected program beside the
// root and the seeds, and why it stopped early if it did. It is what `automemo search --json` prints.
import type { CostLedger } from '../../foundation/llm/ledger.ts';
import type { FinalChoice } from './final-phase.ts';
import type { SearchState } from './search-state.ts';
import type { TreeNode } from './tree.ts';
import { lcb, type UcbParams } from './ucb.ts';

export interface SearchSummary {
  steps: number;
  generations: number;
  reEvaluations: number;
  validGenerations: number;
  failedGenerations: number;
  /** Children not evaluated because they would have changed nothing (same program, or the parent's payloads). */
  noOps: number;
  fullEvaluations: number;
  /**
   * validation: the mean on the validation the meta agent saw (search validation); selection: on the validation held
   * out for selection only, where the pick was chosen (absent when none was held out); test: the held-out test split.
   */
  winner: { id: string; validation: number; evaluations: number; lcb: number; selection?: number | null; test?: number };
  /** Programs the winner cannot be told apart from on validation, and why: the pick is one of them, not better. */
  tie?: { nodes: { id: string; validation: number; test?: number }[]; note: string };
  /** Step 0's screen of standard designs (--seeds auto): each design's validation score, and whether it was kept. */
  screen?: { design: string; node: string; validation: number | null; kept: boolean }[];
  root: { validation: number; test?: number };
  seeds: { id: string; validation: number; test?: number }[];
  stopped?: string;
  /** The infrastructure failure that stopped the search (a resume carries on once it is fixed). */
  failure?: string;
  /** Stopped by its AbortSignal (Ctrl-C on the CLI): the final choice and test were not made; a resume carries on. */
  interrupted?: boolean;
  /** Evaluations that scored nothing (infrastructure failed every task); they count in no score. */
  unscored: number;
  usd: number;
  tokens: number;
}

export function summarize(
  state: SearchState,
  ucb: UcbParams,
  ledger: CostLedger,
  { winner, tie, selection }: FinalChoice,
): SearchSummary {
  const { tree, stop } = state;
  // The action of each step that finished.
  const actions = [
    ...new Map(state.actions.filter((a) => state.doneSteps.includes(a.step)).map((a) => [a.step, a.kind])).values(),
  ];
  const nodes = [...tree.nodes.values()];
  const N = tree.totalEvaluations();
  const tested = (n: TreeNode) => (n.testScore !== undefined ? { test: n.testScore } : {});
  const summary: SearchSummary = {
    steps: actions.length,
    generations: actions.filter((kind) => kind === 'generate').length,
    reEvaluations: actions.filter((kind) => kind === 'evaluate').length,
    validGenerations: nodes.filter((n) => n.kind === 'child').length,
    failedGenerations: tree.failed.length,
    noOps: tree.noops.length,
    fullEvaluations: N,
    winner: {
      id: winner.id,
      validation: tree.q(winner),
      evaluations: winner.scores.length,
      lcb: lcb(tree.q(winner), winner.scores.length, N, ucb),
      ...(selection !== undefined ? { selection } : {}),
      ...tested(winner),
    },
    root: { validation: tree.q(tree.root), ...tested(tree.root) },
    seeds: nodes.filter((n) => n.kind === 'seed').map((s) => ({ id: s.id, validation: tree.q(s), ...tested(s) })),
    unscored: nodes.reduce((n, node) => n + (node.unscored?.length ?? 0), 0),
    usd: ledger.usd,
    tokens: ledger.tokens,
  };
  if (tie)
    summary.tie = {
      nodes: tie.nodes.map((id) => tree.get(id)).map((n) => ({ id: n.id, validation: tree.q(n), ...tested(n) })),
      note: tie.note,
    };
  if (state.screen)
    summary.screen = state.screen.results.map((r) => ({
      design: r.design,
      node: r.node,
      validation: r.score,
      kept: r.kept,
    }));
  if (stop.kind !== 'running') summary.stopped = stop.reason;
  if (stop.kind === 'infrastructure') summary.failure = stop.reason;
  if (stop.kind === 'interrupted') summary.interrupted = true;
  return summary;
}
