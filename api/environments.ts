// The environments this process knows: the built-in ones, plus any a library user registers. Opening one resolves
// a spec or a recorded source through the registry and runs its definition.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Environment } from '../engine/environment/contract.ts';
import { asContent, asUsage, asUsageSync } from '../foundation/usage-error.ts';
import type { EnvironmentDefinition } from '../engine/environment/define.ts';
import type { Protocol } from '../engine/environment/protocol.ts';
import { openEnvironment } from '../engine/environment/open.ts';
import { type EnvCopy, type EnvSource, EnvironmentRegistry, environmentChangeNote, type ResolvedEnvironment } from '../engine/environment/registry.ts';
import { readEnvCopy } from '../run-store/env-copy.ts';
import type { OwnAutomemo } from '../engine/environment/module-source.ts';
import type { ResolvedModels } from '../foundation/llm/models.ts';
import type { ImageStore } from '../sandbox/primitives/images.ts';
import { BUILTIN_ENVIRONMENTS } from '../envs/index.ts';
import { libDir, repoRoot } from '../foundation/paths.ts';

/**
 * `automemo` to a module with none beside it: this automemo, its running instance (running-automemo.js; the entries
 * publish it through api/running.ts).
 */
const running = pathToFileURL(join(repoRoot, 'api', 'running-automemo.js')).href;
const contract = pathToFileURL(join(repoRoot, 'memo-programs', 'contract.ts')).href;
const lib = pathToFileURL(join(libDir, 'index.ts')).href;
export const ownAutomemo: OwnAutomemo = {
  root: repoRoot,
  version: (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version,
  entries: { automemo: running, 'automemo/contract': contract, 'automemo/lib': lib },
  libDir: `${pathToFileURL(libDir).href}/`,
  // The entry's source as a `paths` mapping names it: loaded from there, a module would get a second engine.
  sources: { [pathToFileURL(join(repoRoot, 'api', 'index.ts')).href]: running, [contract]: contract, [lib]: lib },
};

export const environments = new EnvironmentRegistry(BUILTIN_ENVIRONMENTS, { ownAutomemo });

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
  /** What a new run keeps a copy of (module or data files). */
  files?: ResolvedEnvironment['files'];
  /** Set when a recorded module's code differs from when its run started. */
  changed?: string;
}

export interface OpenOptions {
  models: ResolvedModels;
  images: ImageStore;
  seed: number;
  /** What a memory asked test questions learns from (engine/environment/protocol.ts). */
  protocol?: Protocol;
  data?: string;
  /** Refuse data that loads only in part (LoadContext.strict). */
  strict?: boolean;
  onNote: (message: string) => void;
}

/**
 * What a call opens: an environment it names (a spec or a definition), or the one a run recorded (run.json's
 * envSource), from the run's copy of its files (`copy`) when they changed or moved since. A definition given with a
 * recorded source is registered first, so its name is found.
 */
export type EnvRequest =
  | { named: EnvInput }
  | { recorded: EnvSource; copy?: EnvCopy; definition?: EnvironmentDefinition };

/**
 * The one door every call opens an environment through: resolved through the registry, then opened
 * (engine/environment/open.ts). A failure of a named one is the user's to fix: naming something that is not there (a
 * module, a site, a data folder) is a UsageError; what their module or data holds (it fails to load, its tasks or its
 * data are wrong) a ContentError. A recorded one's failure is left as it is for the caller to place (a resume says
 * it is the run's content; a worker refuses the job). How a recorded one differs now is in `changed`, for the caller
 * to say.
 */
export async function openEnv(request: EnvRequest, o: OpenOptions): Promise<OpenedEnvironment> {
  if ('named' in request) {
    const resolved = await asUsage(() => resolveEnv(request.named));
    // A module's load() runs the researcher's code; a built-in's fails on what it was given (the data reader says
    // which of its failures are the data's content).
    return (resolved.source.kind === 'module' ? asContent : asUsage)(() => openResolved(resolved, o));
  }
  const { definition, recorded, copy } = request;
  if (definition && !environments.has(definition.name)) asUsageSync(() => environments.register(definition));
  return openResolved(await environments.reopen(recorded, copy), o);
}

/** `openEnv({ named: env }, o)`: what most calls open. */
export const openNamed = (env: EnvInput, o: OpenOptions): Promise<OpenedEnvironment> => openEnv({ named: env }, o);

async function openResolved(
  resolved: ResolvedEnvironment & { changed?: string },
  o: OpenOptions,
): Promise<OpenedEnvironment> {
  for (const note of resolved.notes ?? []) o.onNote(note);
  const env = await openEnvironment(resolved, {
    models: o.models,
    images: o.images,
    seed: o.seed,
    ...(o.protocol ? { protocol: o.protocol } : {}),
    onNote: o.onNote,
    ...(o.data ? { data: o.data } : {}),
    ...(o.strict ? { strict: true } : {}),
  });
  return { env, source: resolved.source, ...(resolved.files ? { files: resolved.files } : {}), ...(resolved.changed ? { changed: resolved.changed } : {}) };
}

/** What `view` and `report` say of a run whose environment (module or data) changed or moved since it started. */
export function runEnvironmentNote(runDir: string, source: EnvSource | undefined): Promise<string | undefined> {
  const definition = source?.kind === 'builtin' ? environments.list().find((d) => d.name === source.name) : undefined;
  const dataFiles = definition?.dataFiles?.bind(definition);
  return environmentChangeNote(source, dataFiles, readEnvCopy(runDir)?.shown);
}
