// The meta agent writes child programs. Two kinds: a model (analysis per cluster of evidence, synthesis,
// generation, repair) and an offline, deterministic mutator (diagnosis rules and edits of the program's exported
// config). Both get the same context and their children go through the same checks and evaluation.
import type { EnvironmentInfo } from '../environment/contract.ts';
import type { QuickExamReport } from '../../sandbox/quick-exam.ts';
import type { EvaluationResult } from '../evaluate/evaluate.ts';
import type { ProgramFiles } from '../../memo-programs/files.ts';
import type { ClusterPool } from './clue/pool.ts';

export type { ProgramFiles };

export interface ParentContext {
  /** Node id of the parent ("root" for the no-memory program). */
  node: string;
  files: ProgramFiles;
  q: number;
  evaluations: number;
  /** The parent's latest evaluation, with its per-task records. */
  evaluation: EvaluationResult | undefined;
  /** Payload text per task of that evaluation (read from its evidence). */
  payloads: Map<string, string>;
  /** What the agent did per task (its steps and what each returned), read from the same evidence. */
  trajectories?: Map<string, string>;
  env: EnvironmentInfo;
  /** Ground truth of validation tasks for the meta agent (never for programs). */
  explain: (taskId: string) => string | undefined;
  /** What the environment is, for initialization prompts. */
  envDescription: string;
  step: number;
  seed: number;
  /** What earlier edits did, for agents that learn from the tree. */
  history?: EditOutcome[];
  /** CluE's cluster pool as the search left it (persists across steps; empty at first). */
  cluePool?: ClusterPool;
  /** Reports how this step's evidence was clustered; the search journals it and keeps the pool. */
  onClusters?: (clustering: Clustering) => void;
  /** Called before each model call; throws when the dollar cap is reached. */
  beforeModelCall?: () => void;
  /** Reports each model call; the search journals it and charges the ledger. */
  onModelCall?: (call: ModelCall) => void;
}

/** One step's clustering of the parent's evidence (CluE with a model; the metadata groups otherwise). */
export interface Clustering {
  source: 'model' | 'metadata';
  pool: ClusterPool;
  /** Task id → group (a pool cluster id with a model; the metadata group otherwise). */
  assignment: Record<string, string>;
  /** Summaries written at this step. */
  summaries: Record<string, string>;
  notes: string[];
}

export interface ModelCall {
  purpose: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
  usd: number | null;
  ms: number;
  ok: boolean;
  error?: string;
}

export interface Proposal {
  files: ProgramFiles;
  /** What changed and why, in a sentence or two (shown in the viewer). */
  description: string;
  /** Settings changed, when the change was an edit of the program's config. */
  edits?: Edit[];
  /** What the agent read in the parent's evidence and decided; kept in programs/<node>/meta.json for analysts. */
  feedback?: MetaFeedback;
}

/** One cluster of the parent's evidence (a scenario: site, template, family, category) and what was found in it. */
export interface FeedbackCluster {
  scenario: string;
  tasks?: number;
  meanReward?: number;
  /** A line or two: the weaknesses found, or the cluster's score against the whole. */
  summary: string;
  /** The model's analysis as it replied (relevance labels, weaknesses, suggestions). */
  analysis?: Record<string, unknown>;
}

/** The meta agent's reading of the parent, as plain JSON. */
export interface MetaFeedback {
  agent: 'model' | 'offline';
  clusters: FeedbackCluster[];
  /** The proposal the child carries out (the model's synthesis, or the offline diagnosis and its edits). */
  proposal: string;
  /** The model's synthesis when there were several clusters. */
  synthesis?: { summary: string; changes: { change: string; why?: string; clusters?: string[] }[] };
  /** The offline agent's diagnosis findings, and the rule it followed. */
  findings?: { rule: string; detail: string; direction: string; weight: number }[];
  chosen?: string;
}

export interface Edit {
  path: string;
  from: number | boolean | string;
  to: number | boolean | string;
}

/** A past child: its edits and its first score minus its parent's first score (same tasks). */
export interface EditOutcome {
  node: string;
  parent: string;
  edits: Edit[];
  delta: number;
}

export interface MetaAgent {
  readonly mode: 'offline' | 'model';
  /** A child of the parent. Throws MetaAgentError when it cannot produce one. */
  propose(ctx: ParentContext): Promise<Proposal>;
  /** A fixed version of a child that failed quick examination (attempt 1..3), or null to give up. */
  repair(child: Proposal, report: QuickExamReport, ctx: ParentContext, attempt: number): Promise<Proposal | null>;
}

export class MetaAgentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MetaAgentError';
  }
}
