// The meta agent writes child programs. Two kinds: a model (analysis per cluster of evidence, synthesis,
// generation, repair) and an offline, deterministic mutator (diagnosis rules and edits of the program's exported
// config). Each reads the view of the parent it asks for (ParentView); their children go through the same checks and
// evaluation.
import { z } from 'zod';
import { SafeNameSchema as NodeId } from '../../foundation/safe-path.ts';
import type { Same } from '../../foundation/same-type.ts';
import { CHECK_NAMES } from '../../sandbox/check-names.ts';
import type { EnvironmentGuide, EnvironmentInfo, Explanation, Trajectory } from '../environment/contract.ts';
import type { EpisodeRecorder } from '../../memo-programs/contract.ts';
import type { QuickExamReport } from '../../sandbox/quick-exam.ts';
import type { EvaluationResult } from '../evaluate/evaluate.ts';
import type { ProgramFiles } from '../../memo-programs/files.ts';
import type { ClusterPool } from './clue/pool.ts';
import type { TaskImages } from './evidence-images.ts';

export type { ProgramFiles };

/** A step of what an agent did, as the evidence keeps it. */
export type ShownStep = Pick<Trajectory['steps'][number], 'action' | 'observation'>;

/**
 * What every meta agent reads of the parent it writes a child of: the program, its score and latest evaluation, the
 * environment, what was already tried from it. An agent asks for more by the parts it `reads` (MetaAgent): the
 * search builds only those.
 */
export interface ParentCore {
  /** Node id of the parent ("root" for the no-memory program). */
  node: string;
  files: ProgramFiles;
  q: number;
  /** The parent's latest evaluation, with its per-task records (read from its evidence, tasks in validation order). */
  evaluation: EvaluationResult | undefined;
  /** Payload text per task of that evaluation (read from its evidence). */
  payloads: Map<string, string>;
  env: EnvironmentInfo;
  /** Ground truth of validation tasks for the meta agent (never for programs), typed; rendered only for a model. */
  explain: (taskId: string) => Explanation | undefined;
  step: number;
  /** What was already tried from this parent, so the next child goes another way. */
  tried?: TriedChild[];
  /** One real update episode of this environment, as update() receives it. */
  exampleEpisode?: EpisodeRecorder;
  /**
   * Per scenario, how many successful and failed update episodes the memory is built from, and how many of them carry
   * an outcome note (the checker's feedback).
   */
  updateEpisodes?: { scenario: string; success: number; failure: number; notes?: number }[];
}

/**
 * What the model agent alone reads: the evidence it shows a model (trajectories, images), the environment's words for
 * prompts, the tree beyond the parent, CluE's pool, and the hooks through which its calls and clusterings are charged
 * and journaled.
 */
export interface ModelPart {
  evaluations: number;
  /** What each task asked (its instruction, clipped), read from the same evidence. */
  questions?: Map<string, string>;
  /** What the agent did per task (its steps and what each returned), read from the same evidence. */
  trajectories?: Map<string, readonly ShownStep[]>;
  /** Image files per task of that evidence (task images, screenshots, payload images), within the limits. */
  images?: Map<string, TaskImages>;
  /** What the environment is, for initialization prompts. */
  envDescription: string;
  /** The environment's reward rule, data schema and payload reader, for prompts (environments that give one). */
  guide?: EnvironmentGuide;
  /** Which model roles are online, in a line (the meta prompt says whether ctx.llm answers for real). */
  roles?: string;
  /** The best programs elsewhere in the tree, in short. */
  inspirations?: Inspiration[];
  /** CluE's cluster pool as the search left it (persists across steps; empty at first). */
  cluePool?: ClusterPool;
  /** Reports how this step's evidence was clustered; the search journals it and keeps the pool. */
  onClusters?: (clustering: Clustering) => void;
  /** Called before each model call; throws when the dollar cap is reached. */
  beforeModelCall?: () => void;
  /** Reports each model call; the search journals it and charges the ledger. */
  onModelCall?: (call: ModelCall) => void;
}

/**
 * A field of the update episodes' meta with short text values (a customer, a site, a job), summarised: what a memory
 * could file its units under. A field with one value per world files nothing apart; one whose values recur in
 * several episodes of a world, and that tasks name, is an entity the memory can keep knowledge of.
 */
export interface EpisodeField {
  field: string;
  /** Episodes that have it. */
  episodes: number;
  /** Distinct values per world, on average. */
  perWorld: number;
  /** Episodes per distinct value, on average. */
  perValue: number;
  /** Share of the episodes whose instruction names the field's value. */
  named: number;
  /** Some of its values (at most 200), to look for in what tasks ask. */
  values: string[];
}

/**
 * What the offline agent alone reads: the payloads' metadata, the programs it may cross with and the design the parent
 * descends from, what the validation asks, the edit history, and its seed.
 */
export interface OfflinePart {
  /** The payload's metadata per task of that evaluation, as the program wrote it (untrusted). */
  payloadMetadata?: Map<string, unknown>;
  /** The best other programs of the tree with their files, for crossover. */
  donors?: Donor[];
  /** The standard design (a named program: bm25, pipeline, …) the parent descends from, when it descends from one. */
  design?: string;
  /** The validation tasks' instructions (what the memory is asked), up to a few hundred, each clipped. */
  instructions?: string[];
  /** Whether a program with exactly these files is a node of the tree already. */
  inTree?: (files: ProgramFiles) => boolean;
  seed: number;
  /** What earlier edits did, for agents that learn from the tree. */
  history?: EditOutcome[];
  /** The update episodes' meta fields that name something (a customer, a site), summarised. */
  episodeFields?: EpisodeField[];
}

/** The parts of the parent's view beyond the core an agent may read. */
export type ParentPart = 'model' | 'offline';

/** The parent as an agent that reads `P` sees it. */
export type ParentView<P extends ParentPart> = ParentCore &
  ('model' extends P ? ModelPart : unknown) &
  ('offline' extends P ? OfflinePart : unknown);
export type ModelParent = ParentView<'model'>;
export type OfflineParent = ParentView<'offline'>;

/** A child already written from the parent: what it changed and how that went. */
export interface TriedChild {
  /** The child's node id, or "step N" for one that never became a node. */
  node: string;
  /** The step that wrote it (a step still writing a child of the same parent is known by it). */
  step?: number;
  /** What it changed, typed (empty for a generation that failed before it was written). What agents decide from. */
  edits: Edit[];
  /** What it changed and why, in prose: for prompts and people only, never read to decide anything. */
  description?: string;
  /** Its first validation score minus the parent's, on the same tasks. */
  delta?: number;
  /** Why it did not become an evaluated node: a quick-examination check, the meta agent, or a no-op. */
  failure?: ChildFailure;
  /** Its program, when it is a node: a prompt shows it as its edits against the parent. */
  files?: ProgramFiles;
}

/** A good program elsewhere in the tree, with its files: what crossover takes a part from. */
export interface Donor {
  node: string;
  q: number;
  files: ProgramFiles;
  /** The standard design it descends from, when it does. */
  design?: string;
  /** Its mean validation score per scenario, when known. */
  byScenario?: Record<string, number>;
}

/** A good program elsewhere in the tree, summarised for the generation prompt. */
export interface Inspiration {
  node: string;
  q: number;
  evaluations: number;
  /** What it changed from its own parent, typed (empty for a seed). */
  edits: Edit[];
  /** The same in prose, for the prompt. */
  description: string;
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
  /** Prompt tokens served from the endpoint's cache, when it reports them. */
  cachedTokens?: number;
  completionTokens: number;
  usd: number | null;
  ms: number;
  ok: boolean;
  error?: string;
  /** The reply was cut off at max_tokens (finish reason "length"); it was asked again with a larger limit. */
  cut?: boolean;
  /** No request was made: an identical one of this run (in flight or answered) gave its reply. */
  reused?: { step: number; node: string; purpose: string };
  /** The request was sent again, once per reason: only when the server could not be working on it (transport.ts). */
  retries?: string[];
}

/**
 * What chose a child's edit, declared once (the journal's node event and the step line carry it): the benchmark's
 * evidence (what failed tasks show, what the data holds); an edit that helped elsewhere, extended; a systematic
 * sweep of the declared tunables when the evidence points at nothing left; a part of a better program (crossover);
 * a standard design as a child of the root; a model's rewrite.
 */
export const PROPOSAL_MODES = ['evidence', 'extend', 'sweep', 'crossover', 'design', 'model'] as const;
export type ProposalMode = (typeof PROPOSAL_MODES)[number];

export interface Proposal {
  files: ProgramFiles;
  /** What changed and why, in a sentence or two (shown in the viewer and to a model; never parsed). */
  description: string;
  /** What changed, typed: what the tree remembers and agents decide from. */
  edits: Edit[];
  /** What chose the edit (the step line shows it). */
  mode?: ProposalMode;
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

/**
 * What kind of change a child made, declared once: every producer (the offline agent's config and structural edits,
 * translation, initialization, the model agent) writes these, every reader (the tried list, the edit history, the
 * prompts, the viewer, the journal's schema) reads them. What `key`, `from` and `to` hold for each:
 */
export const EDIT_KINDS = [
  /** A setting of the program's exported config moved. key: its dotted path ("graph.maxUnits"). */
  'config',
  /** A pipeline stage added. key: the stage's name; to: its call. */
  'stage-insert',
  /** A stage removed. key: its name; from: its call. */
  'stage-remove',
  /** The fusion of ranked lists replaced by another kind. key: the fusion taken in; from, to: the calls. */
  'stage-swap',
  /** One option of a stage set. key: "<stage>.<option>"; from: its value ('' when it was unset); to: the new one. */
  'stage-tune',
  /** A kind of task routed to a stage of its own. key: the kind ("time"); to: the stage's call. */
  'route',
  /** An option of the pipeline's UnitStore set. key: the option; from, to: its values as source text. */
  'store',
  /** A stage taken from another node's pipeline. key: the stage's name; from: the call it replaced (''); donor. */
  'crossover-stage',
  /** Another design's way of finding units, from a node of it. key, to: the design; donor. Its store edits follow. */
  'crossover-design',
  /** The parent's design written as a pipeline of automemo/lib's stages. key: the design; to: "pipeline". */
  'design-into-pipeline',
  /** A child of the root: a standard design. key: its name; to: its name, or "pipeline" for its pipeline form. */
  'initial-design',
  /** A model-written change, unstructured. key: "program"; to: the model's description of it. */
  'model',
] as const;
export type EditKind = (typeof EDIT_KINDS)[number];

/** Most edits one child carries (a design crossover: its marker and a few store options). */
export const MAX_EDITS = 100;
// Values are source text a program may make long (a donor's stage call): a journal line's own cap bounds them.
const EditValue = z.union([z.number(), z.boolean(), z.string()]);

/** One change a child made, typed: what kind, to what (key), from which value to which (EDIT_KINDS says, per kind). */
export interface Edit {
  kind: EditKind;
  key: string;
  from: number | boolean | string;
  to: number | boolean | string;
  /** The node a crossover took its part from. */
  donor?: string;
}

/** The journal's and meta.json's check of an Edit read back: the interface field for field (or this won't compile). */
export const EditSchema = z
  .object({ kind: z.enum(EDIT_KINDS), key: z.string(), from: EditValue, to: EditValue, donor: NodeId.optional() })
  .strict();
export const EditsSchema = z.array(EditSchema).max(MAX_EDITS);
const sameShape: Same<z.infer<typeof EditSchema>, Edit> = true;
void sameShape;

/** Two children made the same change: the same edits, in the same order. */
export function sameEdits(a: readonly Edit[], b: readonly Edit[]): boolean {
  return (
    a.length === b.length &&
    a.every((e, i) => {
      const f = b[i] as Edit;
      return e.kind === f.kind && e.key === f.key && e.from === f.from && e.to === f.to && e.donor === f.donor;
    })
  );
}

/** What stopped a child before it was evaluated: a quick-examination check, the meta agent, or a no-op. */
export const FAILURE_CHECKS = [...CHECK_NAMES, 'meta-agent', 'no-op'] as const;
export type FailureCheck = (typeof FAILURE_CHECKS)[number];
/** Most characters of a failure's detail kept, live and in the journal alike. */
export const FAILURE_DETAIL_CHARS = 2000;

export interface ChildFailure {
  check: FailureCheck;
  detail: string;
}

export const ChildFailureSchema = z
  .object({ check: z.enum(FAILURE_CHECKS), detail: z.string().max(FAILURE_DETAIL_CHARS) })
  .strict();
const sameFailure: Same<z.infer<typeof ChildFailureSchema>, ChildFailure> = true;
void sameFailure;

/** A failure as recorded: its detail within FAILURE_DETAIL_CHARS. */
export const childFailure = (check: FailureCheck, detail: string): ChildFailure => ({
  check,
  detail: detail.slice(0, FAILURE_DETAIL_CHARS),
});

/** A past child: its edits and its first score minus its parent's first score (same tasks). */
export interface EditOutcome {
  node: string;
  parent: string;
  edits: Edit[];
  delta: number;
}

export interface MetaAgent<P extends ParentPart = ParentPart> {
  readonly mode: 'offline' | 'model';
  /** The parts of the parent's view it reads beyond the core (ParentCore): the search builds those only. */
  readonly reads: readonly P[];
  /** A child of the parent. Throws MetaAgentError when it cannot produce one. */
  propose(ctx: ParentView<P>): Promise<Proposal>;
  /** A fixed version of a child that failed quick examination (attempt 1..3), or null to give up. */
  repair(child: Proposal, report: QuickExamReport, ctx: ParentView<P>, attempt: number): Promise<Proposal | null>;
}

export class MetaAgentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MetaAgentError';
  }
}
