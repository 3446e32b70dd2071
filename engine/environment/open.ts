// Opens a resolved environment: runs its definition's `load`, checks what came back, and turns a task spec into a
// full environment (task-environment.ts). The one place every caller (search, eval, baselines, check, export)
// gets an Environment from. Every call into the environment's own code has a time limit (its definition's
// `limits`) and ends with a message naming the part and the task.
import { TimeLimitError, withinTime } from '../../foundation/time-limit.ts';
import { type Environment, InfraError } from './contract.ts';
import { checkLoaded } from './definition-check.ts';
import { DEFAULT_ENVIRONMENT_LIMITS, type EnvironmentDefinition, type EnvironmentLimits, type LoadContext } from './define.ts';
import { taskEnvironment } from './task-environment.ts';

/** What opening needs of a resolved environment (registry.ts's ResolvedEnvironment has it): its definition and source. */
export interface OpenableEnvironment {
  definition: EnvironmentDefinition;
  source: { arg?: string | undefined; hash?: string | undefined };
}

export async function openEnvironment(
  resolved: OpenableEnvironment,
  context: Omit<LoadContext, 'arg'>,
): Promise<Environment> {
  const { definition, source } = resolved;
  const limits = { ...DEFAULT_ENVIRONMENT_LIMITS, ...definition.limits };
  const loaded = await withinTime(`environment "${definition.name}": load()`, limits.loadMs, () => definition.load({ ...context, ...(source.arg ? { arg: source.arg } : {}) }));
  const checked = checkLoaded(loaded, definition.name);
  if (checked.kind === 'environment') return guarded(checked.env, definition.name, limits);
  return taskEnvironment(definition.name, checked.spec, {
    seed: context.seed,
    ...(context.protocol ? { protocol: context.protocol } : {}),
    images: context.images,
    onNote: context.onNote,
    limits,
    ...(source.hash ? { sourceHash: source.hash } : {}),
  });
}

/**
 * A full Environment's calls under limits: `run` (its agent and checker in one) within the agent's time, as an
 * infrastructure failure of the task when it runs out; `worlds` and `samples` end when they can never finish.
 */
function guarded(env: Environment, name: string, limits: Required<EnvironmentLimits>): Environment {
  return new Proxy(env, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (prop === 'run') {
        return (task: { taskId: string }, ...rest: unknown[]) =>
          withinTime(`environment "${name}": run() of task ${JSON.stringify(task.taskId)}`, limits.agentMs, () => method.call(target, task, ...rest)).catch((err: unknown) => {
            throw err instanceof TimeLimitError ? new InfraError(err.message, { cause: err }) : err;
          });
      }
      if (prop === 'worlds' || prop === 'samples') return (...args: unknown[]) => withinTime(`environment "${name}": ${prop}()`, Infinity, () => method.apply(target, args));
      return method.bind(target);
    },
  });
}
