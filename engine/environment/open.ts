// Opens a resolved environment: runs its definition's `load`, checks what came back, and turns a task spec into a
// full environment (task-environment.ts). The one place every caller (search, eval, baselines, check, export)
// gets an Environment from.
import type { Environment } from './contract.ts';
import { checkLoaded } from './definition-check.ts';
import type { LoadContext } from './define.ts';
import type { ResolvedEnvironment } from './registry.ts';
import { taskEnvironment } from './task-environment.ts';

export async function openEnvironment(
  resolved: ResolvedEnvironment,
  context: Omit<LoadContext, 'arg'>,
): Promise<Environment> {
  const { definition, source } = resolved;
  const loaded = await definition.load({ ...context, ...(source.arg ? { arg: source.arg } : {}) });
  const checked = checkLoaded(loaded, definition.name);
  if (checked.kind === 'environment') return checked.env;
  return taskEnvironment(definition.name, checked.spec, {
    seed: context.seed,
    images: context.images,
    onNote: context.onNote,
    ...(source.hash ? { sourceHash: source.hash } : {}),
  });
}
