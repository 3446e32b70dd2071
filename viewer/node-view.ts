// What the viewer shows of one node of a search tree, and of the run's status: the plain data the run model builds
// (run-model.ts) and the digest reads (digest.ts).
import type { EditLabel } from '../engine/meta/edit-label.ts';
import type { Edit } from '../engine/meta/types.ts';

export type RunStatus = 'running' | 'finished' | 'stopped' | 'interrupted' | 'not started';

export interface EvaluationView {
  split: 'train' | 'test';
  index: number;
  step: number;
  /** null: the evaluation scored nothing (see `unscored`) and counts in no mean. */
  score: number | null;
  /** Why it scored nothing (infrastructure failed every task). */
  unscored?: string;
  tasks: number;
  /** Evidence folder, relative to the run folder. */
  evidence: string;
  ms: number;
}

export interface NodeView {
  id: string;
  parent: string | null;
  kind: 'root' | 'seed' | 'child';
  step: number;
  dir: string;
  hash: string;
  description?: string;
  /** What it changed, typed. */
  edits?: Edit[];
  parentSnapshot: number | null;
  /** Validation scores, in order. */
  scores: number[];
  n: number;
  /** Mean validation score; null before the first evaluation. */
  q: number | null;
  /** Half-width of the confidence interval, c_e·sqrt(ln N / n). */
  ci: number | null;
  lcb: number | null;
  testScore?: number;
  evaluations: EvaluationView[];
  /** Evaluations that scored nothing, with why (they are in `evaluations` too, with score null). */
  unscored: { step: number; split: 'train' | 'test'; reason: string }[];
  /** programs/<node>/meta.json exists (the meta agent's feedback). */
  hasMeta: boolean;
  /** A child's change in a few words and the idea it shares with its siblings (engine/meta/edit-label.ts). */
  edit?: EditLabel;
  /** A seed's standard design (or program), as the run named it. */
  design?: string;
}

/** One validation evaluation as the chart draws it: a point at its step, marked by what it was. */
