// Opens a resolved environment: runs its definition's `load`, checks what came back, and turns a task spec into a
// full environment (task-environment.ts). The one place every caller (search, eval, baselines, check, export)
// gets an Environment from. Every call into the environment's own code has a time limit (its definition's
// `limits`) and ends with a message naming the part and the task.
import { TimeLimitError, withinTime } from '../../foundation/time-limit.ts';
import { type Environment, InfraError } from './contract.ts';
import { checkLoaded } from './definition-check.ts';
import { checkedExplanation } from './explanation.ts';
import { DEFAULT_ENVIRONMENT_LIMITS, type EnvironmentLimits, type LoadContext } from './define.ts';
import type { ResolvedEnvironment } from './registry.ts';
import { taskEnvironment } from './task-environment.ts';

export async function openEnvironment(
  resolved: ResolvedEnvironment,
  context: Omit<LoadContext, 'arg'>,
): Promise<Environment> {
  const { definition, source } = resolved;
  const limits = { ...DEFAULT_ENVIRONMENT_LIMITS, ...definition.limits };
  const loaded = await withinTime(`environment "${definition.name}": load()`, limits.loadMs, () => definition.load({ ...context, ...(source.arg ? { arg: source.arg } : {}) }));
  const checked = checkLoaded(loaded, definition.name);
  // A module is named by what the user gave (its path), so a message about its explain() says which file to fix.
  const origin = `environment "${definition.name}"${source.kind === 'module' ? ` (${source.spec})` : ''}`;
  if (checked.kind === 'environment') return guarded(checked.env, definition.name, limits, origin);
  return taskEnvironment(definition.name, checked.spec, {
    seed: context.seed,
    images: context.images,
    onNote: context.onNote,
    limits,
    origin,
    ...(source.hash ? { sourceHash: source.hash } : {}),
  });
}

/**
 * A full Environment's calls under limits: `run` (its agent and checker in one) within the agent's time, as an
 * infrastructure failure of the task when it runs out; `worlds` and `samples` end when they can never finish.
 * What `explain` returns is checked (explanation.ts): a malformed explanation is refused, naming `origin`.
 */
function guarded(env: Environment, name: string, limits: Required<EnvironmentLimits>, origin: string): Environment {
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
      if (prop === 'explain')
        return (taskId: string) => checkedExplanation(() => method.call(target, taskId), origin, taskId);
      return method.bind(target);
    },
  });
}
