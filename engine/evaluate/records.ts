// What an evaluation produces: a record per task and per world, their aggregates, and the result that holds them.
// Plain data, apart from the evaluator (evaluate.ts), so that what writes evidence (evidence.ts) and what aggregates
// (stats.ts) read it without importing the evaluator that imports them.
import type { SandboxError } from '../../sandbox/isolate.ts';
import type { InstanceUsage } from '../../sandbox/primitives/index.ts';
import type { UsageReport } from '../../sandbox/primitives/meter.ts';
import type { EnvironmentInfo, Split } from '../environment/contract.ts';

export interface TaskRecord {
  taskId: string;
  world: string;
  scenario: string;
  /** Its source, in an environment composed of several (Environment.source). */
  source?: string;
  /** null when the task could not be scored because of an infrastructure failure. */
  reward: number | null;
  success: boolean;
  metrics: Record<string, number>;
  payloadChars: number;
  payloadImages: number;
  truncated: boolean;
  retrieveMs: number;
  agentMs: number;
  cached: boolean;
  /** Why the program failed this task (throw, timeout, invalid payload), if it did. */
  programError?: string;
  infraError?: string;
  note?: string;
  answer?: string;
  /** Model tokens the agent spent on this task. */
  tokens?: { prompt: number; completion: number };
}

export interface WorldRecord {
  world: string;
  episodes: number;
  tasks: number;
  updateMs: number;
  updateErrors: { episode: string; message: string }[];
  /** The sandbox died here (timeout, heap): every later task of the world scored 0. */
  fatal?: SandboxError;
  attempts: number;
  usage: InstanceUsage | null;
  loadMs: number;
}

export interface EvaluationResult {
  program: { entry: string; hash: string };
  env: EnvironmentInfo;
  split: Split;
  score: number | null;
  stats: EvaluationStats;
  tasks: TaskRecord[];
  worlds: WorldRecord[];
  elapsedMs: number;
}

export interface EvaluationStats {
  tasks: number;
  /** Tasks with a reward (infrastructure failures excluded). */
  scored: number;
  infraFailed: number;
  /** Tasks the program failed (throw, timeout, invalid payload, dead sandbox). */
  programFailed: number;
  truncated: number;
  /** Mean reward over scored tasks. */
  score: number | null;
  /** Mean of each reported metric over the tasks that have it. */
  metrics: Record<string, number>;
  byScenario: Record<string, { tasks: number; score: number | null }>;
  /** In an environment composed of several: each source's tasks and score (the score is their mean). */
  bySource?: Record<string, { tasks: number; score: number | null }>;
  meanPayloadChars: number;
  retrieveP50Ms: number;
  retrieveP95Ms: number;
  updateMsPerEpisode: number;
  updateErrors: number;
  loadMs: number;
  usage: UsageReport;
  /** Largest kv and vector footprint of any world's memory. */
  peakKvBytes: number;
  peakVectorBytes: number;
  /** Model tokens: the agent's (executor role) and the programs' own (memo role). */
  tokens: { executor: { prompt: number; completion: number }; memo: { prompt: number; completion: number } };
}
