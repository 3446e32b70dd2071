// What a search journals: one event per thing that happened (a node joined, an evaluation finished, an action was
// chosen, a model was called, a step ended). The events are the only way the search's state changes: each is applied
// by applyEvent (search-state.ts) as it is written, and a resume folds the journal through the same function, so an
// event carries, typed, everything the search decides from. The run store (run-store/journal.ts) writes them one
// line each and reads them back through EventSchema. Every node id and path an event names is a safe name or a safe
// relative path, so no line can point a reader or writer outside the run.
import { z } from 'zod';
import { SafeNameSchema as NodeId, SafeRelPathSchema as RunPath } from '../../foundation/safe-path.ts';
import { ChildFailureSchema, EditsSchema, PROPOSAL_MODES } from '../meta/types.ts';

/** Why a search stopped before its budget: the dollar cap, the machinery failing, or the user's signal. */
export const STOP_KINDS = ['budget', 'infrastructure', 'interrupted'] as const;
export type StopKind = (typeof STOP_KINDS)[number];

/**
 * Which rule found that a child would change nothing: it is the same program as a node of the tree; its payloads on
 * every task of its first validation sample are exactly its parent's (deterministic environments: that sample was
 * scored); or its payloads on every quick-examination task are (elsewhere).
 */
export const NO_OP_RULES = ['same-program', 'first-sample', 'quick-exam'] as const;
export type NoOpRule = (typeof NO_OP_RULES)[number];

/** A payload's digest on one quick-examination task, as `<taskId>:<sha256>` (sandbox/payload-digest.ts). */
const Digest = z.string().max(1200);

const Scored = z.object({ kind: z.enum(['evaluate', 'generate']), node: NodeId, score: z.number() });

export const EventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), t: z.number(), resumed: z.boolean(), pid: z.number() }),
  z.object({
    type: z.literal('node'),
    t: z.number(),
    step: z.number().int(),
    id: NodeId,
    parent: NodeId.nullable(),
    kind: z.enum(['root', 'seed', 'child']),
    dir: RunPath,
    hash: z.string(),
    parentSnapshot: z.number().nullable(),
    description: z.string().optional(),
    edits: EditsSchema.optional(),
    /** What chose a child's edit (evidence, extend, sweep, crossover, design, model). */
    mode: z.enum(PROPOSAL_MODES).optional(),
  }),
  z.object({
    type: z.literal('evaluation'),
    t: z.number(),
    step: z.number().int(),
    node: NodeId,
    split: z.enum(['train', 'test']),
    index: z.number().int(),
    /** null: the evaluation scored nothing (infrastructure failed every task); it counts in no mean, no n, no N. */
    score: z.number().nullable(),
    /** Why it scored nothing, when it did not. */
    unscored: z.string().optional(),
    tasks: z.number().int(),
    sampleSeed: z.number().int().optional(),
    evidence: RunPath,
    stats: z.record(z.string(), z.unknown()),
    ms: z.number(),
  }),
  z.object({
    type: z.literal('action'),
    t: z.number(),
    step: z.number().int(),
    kind: z.enum(['evaluate', 'generate']),
    node: NodeId,
    score: z.number(),
    candidates: z.array(Scored),
    retry: z.string().optional(),
  }),
  // A child that would change nothing (`rule` says how that was found, NO_OP_RULES). It spends the step but no
  // evaluation of the tree; under `first-sample` its first validation sample was scored (and set aside).
  z.object({
    type: z.literal('no-op'),
    t: z.number(),
    step: z.number().int(),
    parent: NodeId,
    rule: z.enum(NO_OP_RULES),
    reason: z.string().max(2000),
    same: NodeId.optional(),
    dir: RunPath.optional(),
    edits: EditsSchema.optional(),
    description: z.string().max(2000).optional(),
    mode: z.enum(PROPOSAL_MODES).optional(),
  }),
  // A child that never passed quick examination, or that the meta agent could not write: the check and its detail.
  z.object({
    type: z.literal('generation-failed'),
    t: z.number(),
    step: z.number().int(),
    parent: NodeId,
    failure: ChildFailureSchema,
    attempts: z.number().int(),
    dir: RunPath.optional(),
  }),
  z.object({
    type: z.literal('meta-call'),
    t: z.number(),
    step: z.number().int(),
    node: NodeId,
    role: z.string(),
    purpose: z.string(),
    model: z.string(),
    promptTokens: z.number(),
    /** Prompt tokens the endpoint served from its cache (usage.prompt_tokens_details.cached_tokens), when it says. */
    cachedTokens: z.number().optional(),
    completionTokens: z.number(),
    usd: z.number().nullable(),
    ms: z.number(),
    ok: z.boolean(),
    error: z.string().optional(),
    /** The reply was cut off at max_tokens; the agent asked again with a larger limit. */
    cut: z.boolean().optional(),
    /** No request was made: an identical request of the run (in flight or answered) gave its reply. */
    reused: z.object({ step: z.number().int(), node: NodeId, purpose: z.string().max(200) }).optional(),
    /** Why the request was sent again (a connection never made, an answer saying it was not done), once per retry. */
    retries: z.array(z.string().max(500)).max(10).optional(),
  }),
  // CluE's clustering of one step's evidence: the pool after it (model) or the metadata groups used instead, and why.
  z.object({
    type: z.literal('clusters'),
    t: z.number(),
    step: z.number().int(),
    node: NodeId,
    source: z.enum(['model', 'metadata']),
    notes: z.array(z.string().max(2000)).max(100),
    clusters: z
      .array(
        z.object({
          id: NodeId,
          label: z.string().max(500),
          description: z.string().max(2000),
          tasks: z.number().int(),
        }),
      )
      .max(50),
    /** Task id → cluster id (model) or metadata group (metadata), for this step's tasks. */
    assignment: z.record(z.string().max(500), z.string().max(500)),
    /** Summaries written at this step (earlier ones are in earlier events). */
    summaries: z.record(z.string().max(500), z.string().max(2000)),
    /** Tasks of earlier steps whose cluster this step's operations changed (a merge), and those it let go. */
    moved: z.record(z.string().max(500), z.string().max(500)).optional(),
    dropped: z.array(z.string().max(500)).max(100_000).optional(),
  }),
  z.object({
    type: z.literal('quick-exam'),
    t: z.number(),
    step: z.number().int(),
    dir: RunPath,
    attempt: z.number().int(),
    passed: z.boolean(),
    /** The check that failed and what it said (a failed examination's). */
    failure: ChildFailureSchema.optional(),
  }),
  // A node's payloads on the quick-examination tasks (a child's from the examination it passed; another node's when
  // the no-op check first needed them): its children's payloads are compared with these (environments that are not
  // deterministic).
  z.object({
    type: z.literal('digests'),
    t: z.number(),
    step: z.number().int(),
    node: NodeId,
    digests: z.array(Digest).max(1000),
  }),
  // Model tokens an evaluation spent (the execution agent's, the programs' own), charged to the ledger like a
  // meta-call: counted whatever happened to its step.
  z.object({
    type: z.literal('spend'),
    t: z.number(),
    step: z.number().int(),
    node: NodeId,
    role: z.enum(['executor', 'memo']),
    promptTokens: z.number(),
    completionTokens: z.number(),
    usd: z.number().nullable(),
  }),
  z.object({ type: z.literal('step-done'), t: z.number(), step: z.number().int() }),
  // Step 0's screen of standard designs (--seeds auto): each design's score on the first validation sample, and the
  // ones kept as seeds (their nodes and evaluations follow as usual).
  z.object({
    type: z.literal('screen'),
    t: z.number(),
    step: z.number().int(),
    keep: z.number().int(),
    results: z
      .array(
        z.object({
          design: z.string().max(4096),
          node: NodeId,
          score: z.number().nullable(),
          tasks: z.number().int(),
          evidence: RunPath,
          unscored: z.string().max(2000).optional(),
          kept: z.boolean(),
        }),
      )
      .max(64),
  }),
  // What the search's validation can tell apart (engine/search/validation-sampler.ts), said when a session starts.
  z.object({
    type: z.literal('validation'),
    t: z.number(),
    tasks: z.number().int(),
    perEvaluation: z.number().int(),
    samples: z.number().int(),
    deterministic: z.boolean(),
    resolvable: z.number(),
    oneTask: z.number(),
    warning: z.string().max(2000).optional(),
    /** The validation held out for selection only (selection-holdout.ts), or why none is. */
    selection: z.object({ tasks: z.number().int(), resolvable: z.number() }).optional(),
    selectionNote: z.string().max(2000).optional(),
  }),
  // Why the search stopped early (STOP_KINDS). A stop for the budget holds over a resume; after one for
  // infrastructure or the user's signal, a resume carries on.
  z.object({
    type: z.literal('stopped'),
    t: z.number(),
    step: z.number().int(),
    kind: z.enum(STOP_KINDS),
    reason: z.string(),
  }),
  // A candidate scored on the validation tasks held out for selection (selection-holdout.ts), in the final phase.
  z.object({ type: z.literal('selection'), t: z.number(), step: z.number().int(), node: NodeId, score: z.number().nullable(), tasks: z.number().int(), evidence: RunPath }),
  // `tied`: the programs the winner cannot be told apart from on validation (engine/search/ties.ts), with why.
  z.object({
    type: z.literal('final'),
    t: z.number(),
    selection: z.string(),
    winner: NodeId,
    lcb: z.number(),
    validation: z.number(),
    tied: z.array(NodeId).max(50).optional(),
    tieNote: z.string().max(2000).optional(),
  }),
]);

export type JournalEvent = z.infer<typeof EventSchema>;
/** An event as written: the time is filled in by the journal. */
export type NewEvent = JournalEvent extends infer E ? (E extends { t: number } ? Omit<E, 't'> : never) : never;
