// An environment as a value: a name, a line of help and a `load` that builds it. Built-in environments and
// researchers' own (a module given with --env ./my-env.ts) are defined the same way; the registry (registry.ts)
// finds them by name, path or package.
import type { ResolvedModels } from '../../foundation/llm/models.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import type { Environment } from './contract.ts';
import type { Protocol } from './protocol.ts';
import type { TaskEnvironmentSpec } from './task-spec.ts';

// `any`: each environment picks its own ground-truth type; the engine never reads it.
type AnySpec = TaskEnvironmentSpec<any>;
export type LoadResult = Promise<Environment | AnySpec> | Environment | AnySpec;

export interface LoadContext {
  /** What followed the colon in --env name:arg (e.g. "charts,mazes"), if anything. */
  arg?: string;
  /** --data, when given. */
  data?: string;
  /** --strict: refuse data that loads only in part (a data: benchmark with a world left out) instead of noting it. */
  strict?: boolean;
  /** The run's seed: the split and any generated tasks depend on it. */
  seed: number;
  /**
   * What a memory asked test questions learns from (protocol.ts; default 'update'). Environments of tasks apply it
   * themselves (task-environment.ts); a full Environment whose update episodes are tasks of the split should too.
   */
  protocol?: Protocol;
  models: ResolvedModels;
  /** The host's image store: images programs may reach by id. */
  images: ImageStore;
  /** Progress notes for the user (stderr on the CLI). */
  onNote: (message: string) => void;
}

/**
 * How long each call into the environment's code may take before it is ended with a message naming the part and
 * the task (a task whose agent or checker ran out is unscored: the environment's failure, not the program's).
 */
export interface EnvironmentLimits {
  /** load(): default 10 minutes. */
  loadMs?: number;
  /** The agent's run of one task (a full Environment's run()): default 10 minutes. */
  agentMs?: number;
  /** The checker's verdict on one task: default 5 minutes. */
  checkMs?: number;
}

export const DEFAULT_ENVIRONMENT_LIMITS: Required<EnvironmentLimits> = { loadMs: 600_000, agentMs: 600_000, checkMs: 300_000 };

export interface EnvironmentDefinition {
  /** Lower-case name: letters, digits and dashes. */
  name: string;
  /** One line for help and listings. */
  summary: string;
  /** How the part after the colon reads, for help, e.g. "<family,...>". */
  options?: string;
  /**
   * The part after the colon names a file or folder (data:<file>): a worker serving a queue opens it only under the
   * folders it was started for, and a search and a worker that find it at different paths agree on its content.
   */
  argIsPath?: boolean;
  /**
   * The files the part after the colon names (a data file, a folder's data files): a run fingerprints them and keeps a
   * copy in its folder, so a resume or an export after they changed or moved carries on from the data it started with.
   */
  dataFiles?(arg: string): string[];
  /** Builds the environment: a full Environment, or tasks + agent + checker that the engine turns into one. */
  load(context: LoadContext): LoadResult;
  /** Time limits of calls into this environment's code (defaults in DEFAULT_ENVIRONMENT_LIMITS). */
  limits?: EnvironmentLimits;
}

/** Typed identity: `export default defineEnvironment({...})`. The shape is checked again when it is loaded. */
export function defineEnvironment<T extends EnvironmentDefinition>(definition: T): T {
  return definition;
}
