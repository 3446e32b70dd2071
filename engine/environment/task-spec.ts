// The easy way to write an environment: give tasks, an agent and a checker; the engine does the rest
// (task-environment.ts): it assigns roles when tasks carry none, collects the no-memory update episodes once and
// stores them, retries infrastructure failures, builds the worlds per split, and turns runs into outcomes.
import type { Json, MemoryPayload } from '../../memo-programs/contract.ts';
import type { EnvironmentGuide, Explanation } from './contract.ts';
import type { PayloadBudget } from '../../sandbox/payload.ts';
import type { SplitSpec, TaskRole } from './roles.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';

// A task's role is roles.ts's (where roles are assigned); the spec names it.
export type { TaskRole };

/** An image the environment shows: bytes, not a path, so it can be stored and hashed. */
export interface TaskImage {
  bytes: Uint8Array;
  mime: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';
  caption?: string;
}

export interface EnvTask<Truth = unknown> {
  /** Unique, stable across runs (it keys the split and the stored episodes). */
  id: string;
  /** The template, site, family or category it belongs to: groups evidence and stratifies the split (never shown to programs). */
  scenario: string;
  /**
   * The world the task belongs to: tasks of one world share one memory (its update tasks are what the memory learns
   * from; its validation and test tasks are asked of it), and tasks of other worlds never reach it. Default: one
   * world for every task. Shown to programs as `meta.world`.
   */
  world?: string;
  /** The domain programs see (the record's `domain`); default the scenario. Set it when the scenario names what programs must not see, such as a template. */
  domain?: string;
  instruction: string;
  /** Given, or assigned by a seeded stable hash per scenario (see `split`). */
  role?: TaskRole;
  /** What the agent sees at the start besides the instruction. */
  context?: string;
  images?: TaskImage[];
  /** Visible to programs (the PartialRecorder's meta). */
  meta?: { [key: string]: Json };
  /** Ground truth and whatever the checker needs; never shown to programs. */
  truth?: Truth;
}

export interface AgentStep {
  action: string;
  thought?: string;
  result?: string;
  error?: string;
  observation?: { text?: string; images?: TaskImage[] };
}

/**
 * What an agent did with a task. An agent that can score itself (it read the site's state) sets `reward` (and
 * `success`, default reward = 1), used when the spec has no `check`. `note` (how it used memory, say) and `metrics`
 * are reported beside the checker's.
 */
export interface AgentRun {
  answer?: string;
  steps: AgentStep[];
  tokens?: { prompt: number; completion: number };
  reward?: number;
  success?: boolean;
  note?: string;
  metrics?: Record<string, number>;
}

export interface TaskAgent<Truth = unknown> {
  /** Names the agent and its configuration: part of every cache key. */
  id: string;
  /** offline (deterministic rules) or model (an executor model). Default offline. */
  mode?: 'offline' | 'model';
  /** Same task and payload, same run? Then outcomes are cached. Default: true offline, false with a model. */
  deterministic?: boolean;
  /** Runs the task with the memory payload. Any error it throws is the machinery failing (an InfraError): retried, never scored. */
  run(task: EnvTask<Truth>, memory: MemoryPayload, context: { images: ImageStore }): Promise<AgentRun>;
}

/**
 * A checker's verdict: a reward in [0, 1], a pass/fail, or both with a note and extra figures. `success` defaults to
 * reward = 1. `note` explains the verdict in the evidence (it may name the answer; programs never see it);
 * `feedback` is what a recorded update episode says of its outcome, which programs do see (default "task accepted"
 * or "task rejected").
 */
export type Verdict = number | boolean | { reward: number; success?: boolean; note?: string; feedback?: string; metrics?: Record<string, number> };

export interface TaskEnvironmentSpec<Truth = unknown> {
  tasks: EnvTask<Truth>[];
  agent: TaskAgent<Truth>;
  /** Scores a run; optional when the agent sets `reward` itself. */
  check?(task: EnvTask<Truth>, run: AgentRun): Verdict | Promise<Verdict>;
  /** A paragraph on what the tasks are and what they need, for the meta agent. */
  description: string;
  /** What the reward means, e.g. "exact answer". */
  reward: string;
  /**
   * For the meta agent, as exactly as the code applies it: the reward rule, the episodes' fields, how the agent reads
   * a payload. Unset parts are filled from the tasks and the agent (task-guide.ts); the meta fields are always listed.
   */
  guide?: Partial<Omit<EnvironmentGuide, 'agentAnswers'>>;
  /**
   * Role assignment for tasks without one (engine/environment/roles.ts): shares per scenario (`trainShare`, the share
   * that trains; `validationShare`, the share of those that validate) or counts in all (`update`, `validation`). Unsaid:
   * a sixth update, and validation a quarter of the rest but at least 30 (at most half).
   */
  split?: SplitSpec;
  budget?: PayloadBudget;
  /**
   * Ground truth of a task for the meta agent's evidence (never shown to programs): `{ gold: [answers], choices?,
   * evidence?, notes? }` (explanation.ts); `question` and `scenario` default to the task's instruction and scenario.
   * What it returns is checked: a malformed explanation stops the run with a message naming the module and the task.
   */
  explain?(task: EnvTask<Truth>): Explanation | undefined;
  /** Extra data for the run record and the episode key (versions, generator settings, a hash of the code). */
  data?: { [key: string]: Json };
  /** Episodes collected at once (default 2) and attempts per episode on infrastructure failures (default 3). */
  collect?: { concurrency?: number; attempts?: number };
  close?(): Promise<void>;
}
