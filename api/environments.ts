// The environments this process knows: the built-in ones, plus any a library user registers. Opening one resolves
// a spec or a recorded source through the registry and runs its definition.
import type { Environment } from '../engine/environment/contract.ts';
import { asUsage } from '../foundation/usage-error.ts';
import type { EnvironmentDefinition } from '../engine/environment/define.ts';
import { openEnvironment } from '../engine/environment/open.ts';
import { type EnvSource, EnvironmentRegistry, type ResolvedEnvironment } from '../engine/environment/registry.ts';
import type { ResolvedModels } from '../foundation/llm/models.ts';
import type { ImageStore } from '../sandbox/primitives/images.ts';
import { BUILTIN_ENVIRONMENTS } from '../envs/index.ts';

export const environments = new EnvironmentRegistry(BUILTIN_ENVIRONMENTS);

/** Makes a definition available by name to every later call (search({ env: 'my-bench' })). */
export function registerEnvironment(definition: EnvironmentDefinition): void {
  environments.register(definition);
}

/** Registered environments: name, summary, options. */
export function listEnvironments(): { name: string; summary: string; options?: string }[] {
  return environments.list().map(({ name, summary, options }) => ({ name, summary, ...(options ? { options } : {}) }));
}

/** What a library call names as its environment: a spec string, or a definition passed directly. */
export type EnvInput = string | EnvironmentDefinition;

export async function resolveEnv(env: EnvInput, cwd = process.cwd()): Promise<ResolvedEnvironment> {
  if (typeof env === 'string') return environments.resolve(env, cwd);
  if (!environments.has(env.name)) environments.register(env);
  return environments.resolve(env.name, cwd);
}

export interface OpenedEnvironment {
  env: Environment;
  source: EnvSource;
  /** Set when a recorded module's code differs from when its run started. */
  changed?: string;
}

export interface OpenOptions {
  models: ResolvedModels;
  images: ImageStore;
  seed: number;
  data?: string;
  onNote: (message: string) => void;
}

export async function openEnv(
  resolved: ResolvedEnvironment & { changed?: string },
  o: OpenOptions,
): Promise<OpenedEnvironment> {
  const env = await openEnvironment(resolved, {
    models: o.models,
    images: o.images,
    seed: o.seed,
    onNote: o.onNote,
    ...(o.data ? { data: o.data } : {}),
  });
  return { env, source: resolved.source, ...(resolved.changed ? { changed: resolved.changed } : {}) };
}

/** Resolves and opens what a call names; a failure there is the user's to fix (a UsageError). */
export function openNamed(env: EnvInput, o: OpenOptions): Promise<OpenedEnvironment> {
  return asUsage(async () => openEnv(await resolveEnv(env), o));
}

/** The environment a run recorded (run.json's envSource; runs from before it name a built-in in options.env). */
export async function reopenEnv(
  recorded: EnvSource | undefined,
  spec: string,
  o: OpenOptions,
): Promise<OpenedEnvironment> {
  const resolved: ResolvedEnvironment & { changed?: string } = recorded
    ? await environments.reopen(recorded)
    : await environments.resolve(spec);
  if (resolved.changed) o.onNote(`${resolved.changed}; using it as it is now`);
  return openEnv(resolved, o);
}
