// The environment contract. An environment gives, per split, the worlds a memory is built in: each world has
// update episodes (what the memory learns from, in order) and retrieve tasks (what it is asked about). It runs a
// task with a memory payload through an agent and scores the outcome in [0, 1] with its checker.
// Ground truth (answers, evidence, checker data) stays inside the environment: programs only ever see
// EpisodeRecorder and PartialRecorder values.
import type { EpisodeRecorder, Json, MemoryPayload, PartialRecorder } from '../../memo-programs/contract.ts';
import type { PayloadBudget } from '../../sandbox/payload.ts';
import type { Explanation } from './explanation.ts';

export type { Choice, EvidenceRecord, Explanation } from './explanation.ts';

/**
 * train = what the search uses (update batch + validation retrieve batch); test = held out for the final check. The
 * contract's name, which environments implement (`worlds('train')`) and records keep; users call the first split by
 * what it asks, `validation` (SplitName), and may still give `train`.
 */
export type Split = 'train' | 'test';

/** A split as users name it: the validation tasks (the contract's `train`) or the held-out test tasks. */
export type SplitName = 'validation' | 'test';

/** The name a user reads for a split. */
export const splitName = (split: Split): SplitName => (split === 'train' ? 'validation' : 'test');

/** A split as a user gives it (`validation`, its old name `train`, or `test`), or undefined when it is none of them. */
export function splitOf(given: unknown): Split | undefined {
  return given === 'validation' || given === 'train' ? 'train' : given === 'test' ? 'test' : undefined;
}

export interface World {
  /** Stable id, e.g. a conversation id or "all". */
  id: string;
  /** Update episodes, in the order a memory receives them. */
  episodes: EpisodeRecorder[];
  /** Virtual time (ms since epoch) of each episode, for ctx.now(); same length as `episodes`. */
  episodeTimes?: number[];
  /** Retrieve tasks of this split. */
  tasks: PartialRecorder[];
  /** Virtual time during the retrieve phase. */
  retrieveTime?: number;
  /** A task's own time, by task id, where it differs from retrieveTime (a question asked at a given date). */
  taskTimes?: ReadonlyMap<string, number>;
}

/** What an agent did with a task: its answer, the steps it took, and what it cost. */
export interface Trajectory {
  answer?: string;
  steps: { action: string; observation?: string; thought?: string; /** Image ids the step produced (written as evidence files). */ images?: string[] }[];
  /** Image ids the task showed the agent (written as evidence files). */
  images?: string[];
  /** Model tokens spent by the agent, when a model ran it. */
  tokens?: { prompt: number; completion: number };
  /** Files (screenshots, images) written for this run, relative to the evidence folder. */
  files?: string[];
}

export interface TaskOutcome {
  /** The score the search optimises, in [0, 1]. */
  reward: number;
  success: boolean;
  /** Further figures reported beside the reward (e.g. evidence recall and F1). */
  metrics: Record<string, number>;
  trajectory: Trajectory;
  /** The checker's explanation. */
  note?: string;
}

/** A failure of the machinery rather than of the memory (API error, crashed browser): retried, never scored. */
const INFRA = Symbol.for('automemo.InfraError');

export class InfraError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InfraError';
    Object.defineProperty(this, INFRA, { value: true });
  }

  /**
   * By a mark every copy of automemo sets, not by class: a benchmark with its own automemo installed beside it
   * throws that copy's InfraError, which is still the machinery failing.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[INFRA] === true;
  }
}

/**
 * The environment's own code failed for good (its agent or checker on an update episode, after the retries): no
 * program can be evaluated on it, and it is the benchmark's failure, never a program's.
 */
export class EnvironmentFailure extends InfraError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EnvironmentFailure';
  }

  // By class, unlike InfraError's mark: every InfraError is not an EnvironmentFailure.
  static override [Symbol.hasInstance](value: unknown): boolean {
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

export interface EnvironmentInfo {
  name: string;
  /** offline (reference agent, programmatic checker) or model (model agent). */
  mode: 'offline' | 'model';
  /** What the reward means, e.g. "evidence recall". */
  reward: string;
  budget: PayloadBudget;
  /** The agent configuration; part of every cache key. */
  agentId: string;
  /** Is the agent deterministic (same task and payload, same outcome)? Then outcomes are cached. */
  deterministic: boolean;
  /** Data the tasks come from (files and their hashes), for the run record. */
  data: Json;
}

/**
 * What a meta agent must know to write programs for an environment, stated as exactly as the code applies it: a
 * model that has to guess the reward rule or the payload format it is read in writes for the wrong target.
 */
export interface EnvironmentGuide {
  /** The reward rule exactly as the checker computes it. */
  reward: string;
  /** The episodes' and tasks' fields a program can use, `meta` above all: names and meanings. */
  schema: string;
  /** How the agent uses a payload: offline, exactly how the reference agent reads it; with a model, what it is shown. */
  reader: string;
  /** Is a task record's `answer` an agent's answer? (Offline LoCoMo has no agent: its checker quotes the payload.) */
  agentAnswers: boolean;
}

export interface Environment {
  info(): EnvironmentInfo;
  worlds(split: Split): Promise<World[]>;
  /** Runs one task with a payload (already within budget) and scores it. Throws InfraError on machinery failure. */
  run(task: PartialRecorder, payload: MemoryPayload): Promise<TaskOutcome>;
  /** A few training episodes and tasks for quick examination. */
  samples(count: number): Promise<{ episodes: EpisodeRecorder[]; tasks: PartialRecorder[] }>;
  /** Scenario of a task (site, template, family, category), for grouping evidence. */
  scenario(taskId: string): string;
  /**
   * The source a task comes from, in an environment composed of several (compose.ts): the score weighs each source
   * the same (engine/evaluate/stats.ts), and every report breaks it down by source. Absent: one source.
   */
  source?(taskId: string): string | undefined;
  /**
   * Readers other than the one the reward uses, that can score a payload too (a second offline reader with other
   * rules, evidence recall where the data cites evidence, the model reader): a study scores the picks and the best
   * design with them, and flags a gain that does not hold under another reader.
   */
  readers?(): string[];
  /** A task's payload scored by one of readers() in [0, 1]; undefined when that reader cannot score this task. */
  reread?(reader: string, taskId: string, payload: MemoryPayload): Promise<number | undefined>;
  /**
   * Ground truth of a training task, for the meta agent's evidence (never shown to programs), as typed fields
   * (explanation.ts); undefined for a task it knows nothing of.
   */
  explain?(taskId: string): Explanation | undefined;
  /** A paragraph on what the environment is and what its tasks need, for the meta agent. */
  describe?(): string;
  /** The reward rule, the data schema and how payloads are read, for the meta agent's prompts. */
  guide?(): EnvironmentGuide;
  close?(): Promise<void>;
}
