// Opens a resolved environment: runs its definition's `load`, checks what came back, and turns a task spec into a
// full environment (task-environment.ts). The one place every caller (search, eval, baselines, check, export)
// gets an Environment from. Every call into the environment's own code has a time limit (its definition's
// `limits`) and ends with a message naming the part and the task.
import { dirname } from 'node:path';
import { ContentError, UsageError } from '../../foundation/usage-error.ts';
import { TimeLimitError, withinTime } from '../../foundation/time-limit.ts';
import { type Environment, InfraError } from './contract.ts';
import { checkLoaded } from './definition-check.ts';
import { checkedExplanation } from './explanation.ts';
import { DEFAULT_ENVIRONMENT_LIMITS, type EnvironmentDefinition, type EnvironmentLimits, type LoadContext } from './define.ts';
import { throwSite } from './module-source.ts';
import type { EnvFiles, EnvSource } from './env-source.ts';
import { environmentLabel, taskEnvironment } from './task-environment.ts';

/** What opening needs of a resolved environment (registry.ts's ResolvedEnvironment has it): its definition and source. */
export interface OpenableEnvironment {
  definition: EnvironmentDefinition;
  source: Pick<EnvSource, 'arg' | 'hash'> & Partial<Pick<EnvSource, 'kind' | 'path'>>;
  /** A module's files: where a failure of its load() is placed. */
  files?: EnvFiles;
}

export async function openEnvironment(
  resolved: OpenableEnvironment,
  context: Omit<LoadContext, 'arg'>,
): Promise<Environment> {
  const { definition, source } = resolved;
  const limits = { ...DEFAULT_ENVIRONMENT_LIMITS, ...definition.limits };
  const module = source.kind === 'module' ? source.path : undefined;
  const who = environmentLabel(definition.name, module);
  let loaded;
  try {
    loaded = await withinTime(`${who}: load()`, limits.loadMs, () => definition.load({ ...context, ...(source.arg ? { arg: source.arg } : {}) }), { setting: 'limits.loadMs' });
  } catch (err) {
    throw module ? loadFailure(who, err, resolved.files?.root ?? dirname(module)) : err;
  }
  const checked = checkLoaded(loaded, definition.name);
  if (checked.kind === 'environment') return guarded(checked.env, who, limits);
  return taskEnvironment(definition.name, checked.spec, {
    seed: context.seed,
    ...(context.protocol ? { protocol: context.protocol } : {}),
    images: context.images,
    onNote: context.onNote,
    limits,
    ...(module ? { module } : {}),
    ...(source.hash ? { sourceHash: source.hash } : {}),
  });
}

/**
 * An error a module's load() threw, named: the module, the part and where in its files it was raised, besides the
 * message. Whose problem it is stays as it was: the machinery's (InfraError, a time limit) or the researcher's code.
 */
function loadFailure(who: string, err: unknown, root: string): Error {
  if (err instanceof TimeLimitError) return err;
  const message = String((err as Error)?.message ?? err).split('\n')[0];
  const at = throwSite(err, root);
  const text = `${who}: load() failed: ${message}${at ? ` (at ${at})` : ''}`;
  if (err instanceof InfraError) return new InfraError(text, { cause: err });
  return err instanceof UsageError && !(err instanceof ContentError) ? new UsageError(text, { cause: err, showUsage: false }) : new ContentError(text, { cause: err });
}

/**
 * A full Environment's calls under limits: `run` (its agent and checker in one) within the agent's time, as an
 * infrastructure failure of the task when it runs out; `worlds` and `samples` end when they can never finish.
 * What `explain` returns is checked (explanation.ts): a malformed explanation is refused, naming the environment and its module.
 */
function guarded(env: Environment, who: string, limits: Required<EnvironmentLimits>): Environment {
  return new Proxy(env, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (prop === 'run') {
        return (task: { taskId: string }, ...rest: unknown[]) =>
          withinTime(`${who}: run() of task ${JSON.stringify(task.taskId)}`, limits.agentMs, () => method.call(target, task, ...rest), { setting: 'limits.agentMs' }).catch((err: unknown) => {
            throw err instanceof TimeLimitError ? new InfraError(err.message, { cause: err }) : err;
          });
      }
      if (prop === 'worlds' || prop === 'samples') return (...args: unknown[]) => withinTime(`${who}: ${prop}()`, Infinity, () => method.apply(target, args));
      if (prop === 'explain') return (taskId: string) => checkedExplanation(() => method.call(target, taskId), who, taskId);
      return method.bind(target);
    },
  });
}
