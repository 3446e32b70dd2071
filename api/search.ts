// search(): the budget-aware tree search as a library call. Options are checked at this edge (a library user
// passes plain objects); the result is what `automemo search --json` prints. Progress arrives as journal events,
// and an AbortSignal stops the search cleanly: journaled, resumable with { resume: true }.
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EnvSource } from '../engine/environment/registry.ts';
import type { EnvironmentInfo } from '../engine/environment/contract.ts';
import { CostLedger } from '../foundation/llm/ledger.ts';
import { describeModel, ROLES, type ResolvedModels, resolveModels } from '../foundation/llm/models.ts';
import { createMetaAgent } from '../engine/meta/create.ts';
import { runSearch, type SearchProgress } from '../engine/search/search.ts';
import type { SearchSummary } from '../engine/search/summary.ts';
import type { ProgressEvent } from '../engine/evaluate/evaluate.ts';
import { DEFAULT_UCB } from '../engine/search/ucb.ts';
import { type ValidationPlan, validationOf } from '../engine/search/validation-sampler.ts';
import { UsageError, asContent, asUsageSync } from '../foundation/usage-error.ts';
import { resolveProgram, STANDARD_DESIGNS } from '../memo-programs/registry.ts';
import { installedPackageDir, repoRoot } from '../foundation/paths.ts';
import { userMac } from '../foundation/user-key.ts';
import type { JournalEvent } from '../engine/search/journal-events.ts';
import { type RunOptions, RunOptionsSchema, seedsOf } from '../engine/search/run-options.ts';
import { SCREEN_KEEP } from '../engine/search/screen.ts';
import { runSeeds } from '../engine/run-seeds.ts';
import type { Protocol } from '../engine/environment/protocol.ts';
import { defaultRunFolder, RUN_FORMAT, RunFolder } from '../run-store/run-folder.ts';
import { readEnvCopy, writeEnvCopy } from '../run-store/env-copy.ts';
import { type EnvInput, type OpenedEnvironment, openEnv } from './environments.ts';
import { withHost } from './host.ts';
import type { HostServices } from '../sandbox/primitives/index.ts';
import { type SourceScores, sourceScoresOf } from './search-sources.ts';
import { checkRunTrust } from './run-trust.ts';
import { createExecutor, type Executor } from './workers.ts';
import { checkOptions, defaultsOf, type OptionValues, recordedOptions, withDefaults } from './options/derive.ts';

// What a search's progress shows, from the engine's own rules: the best LCB so far, the final phase's step number.
export { bestLcb } from '../engine/search/selection.ts';
export { FINAL_STEP } from '../engine/search/final-phase.ts';
export { SCREEN_KEEP, seedsOf };

/**
 * What search() takes: the options declared for `search` in api/options/catalog.ts (each with its schema, default and
 * help there), and the calls' own parts below.
 */
export type SearchOptions = OptionValues<'search'> & SearchCalls;

export interface SearchCalls {
  /** Models per role (default: from AUTOMEMO_* environment variables; none means offline). */
  models?: ResolvedModels;
  signal?: AbortSignal;
  onEvent?: (event: JournalEvent, progress: SearchProgress) => void;
  /** Tasks done as an evaluation goes, by node (what the CLI's progress lines print); not journaled. */
  onProgress?: (node: string, event: ProgressEvent) => void;
  /** Progress notes (episode collection, data warnings, a changed environment module). */
  onNote?: (message: string) => void;
  /** Called once the run folder and environment are ready, before step 0. */
  onStart?: (start: SearchStart) => void;
  /** Called as each step (1…budget) starts; a throw there ends the search as a kill would (tests, studies). */
  beforeStep?: (step: number) => void;
}

export interface SearchStart {
  runFolder: string;
  resumed: boolean;
  options: RunOptions;
  env: { name: string; mode: 'offline' | 'model'; reward: string; source: EnvSource };
  meta: string;
  /** Where evaluations run ("in this process", "2 local worker processes", "workers behind redis://…"). */
  evaluation: string;
  /** What the validation can tell apart: its tasks, the tasks per evaluation, the smallest difference it resolves; a warning when it is small. */
  validation: ValidationPlan;
  /** What a memory asked test questions learns from. */
  protocol: Protocol;
}

export interface SearchResult extends SearchSummary {
  runFolder: string;
  env: SearchStart['env'];
  validation: ValidationPlan;
  /** Where evaluations ran. */
  evaluation: string;
  /** What a memory asked test questions learned from. */
  protocol: Protocol;
  /** For an environment composed of several: the pick's score per source, on validation and on test. */
  sources?: SourceScores;
}

/**
 * What a search starts from unless told: the best few of the standard designs (STANDARD_DESIGNS: the baselines and a
 * pipeline of automemo/lib's stages, which the offline agent edits structurally), screened at step 0 on validation.
 */
export const DEFAULT_SEEDS = defaultsOf('search').seeds as 'auto';

/** The run's settings: a new run's from the options, a resumed run's from its run.json. */
function settings(
  given: SearchOptions,
  models: ResolvedModels,
): { folder: RunFolder; options: RunOptions; recorded?: EnvSource } {
  const o = withDefaults('search', given);
  if (o.resume) {
    if (!o.out) throw new UsageError('resume needs out: the run folder to continue');
    const folder = new RunFolder(o.out);
    const info = asUsageSync(() => folder.read());
    const kept = seedsOf(info.options);
    if ((o.seed !== undefined && o.seed !== kept.run) || (o.splitSeed !== undefined && o.splitSeed !== kept.split))
      throw new UsageError(
        `a resumed run keeps its seeds (seed ${kept.run}, split seed ${kept.split}); leave out seed and splitSeed`,
      );
    // A resumed run keeps its settings but those a resume may change (the budget and the dollar cap may be raised).
    const options = { ...info.options, ...recordedOptions('search', given, (d) => d.resumable === true) } as RunOptions;
    return { folder, options, recorded: info.envSource };
  }
  const env = o.env;
  if (env === undefined) throw new UsageError('give env: a registered name, a module path or data:<file>');
  const auto = o.seeds === 'auto';
  const seeds = o.seeds === 'auto' ? [] : [...o.seeds];
  for (const s of seeds) asUsageSync(() => resolveProgram(s));
  const meta = o.meta ?? (models.meta ? 'model' : 'offline');
  if (meta === 'model' && !models.meta)
    throw new UsageError('meta "model" needs a model: set AUTOMEMO_META_MODEL (and OPENAI_BASE_URL / OPENAI_API_KEY)');
  const drawn = runSeeds(o.seed, o.splitSeed);
  const options = RunOptionsSchema.parse({
    // The options declared `recorded` (budget, policy, evalFraction, …), by their keys in run.json.
    ...recordedOptions('search', o, (d) => d.recorded !== undefined),
    env: typeof env === 'string' ? env : env.name,
    seeds,
    ...(auto ? { screen: { designs: STANDARD_DESIGNS, keep: SCREEN_KEEP } } : {}),
    meta,
    seed: drawn.run,
    splitSeed: drawn.split,
    sandboxSeed: drawn.sandbox,
    ucb: DEFAULT_UCB,
    repairAttempts: 3,
    quickExamTasks: 5,
  });
  const folder = new RunFolder(o.out ?? defaultRunFolder('search'));
  return { folder, options };
}

export async function search(o: SearchOptions = {}): Promise<SearchResult> {
  checkOptions('search', o);
  const models = o.models ?? resolveModels();
  const onNote = o.onNote ?? (() => undefined);
  const { folder, options, recorded } = settings(o, models);
  return withHost(models, async (services) => {
    // Said before the environment is opened; checked again under the folder's lock when the run is created.
    if (!o.resume) asUsageSync(() => folder.checkNew());
    const host: SearchHost = { models, services, onNote };
    const opened = await openRunEnvironment(o, folder, options, recorded, host);
    try {
      // Read once: a data environment's info counts its questions and reports its split.
      const info = opened.env.info();
      const release = takeUpFolder(o, folder, options, opened, info, host);
      try {
        return await searchOn(o, folder, options, opened, info, host);
      } finally {
        release();
      }
    } finally {
      await opened.env.close?.();
    }
  });
}

/** What a search runs with besides its options: the models, the host's services, where notes go. */
interface SearchHost {
  models: ResolvedModels;
  services: HostServices;
  onNote: (message: string) => void;
}

/** How a run's environment is opened: with the split seed, protocol and data the run was made with. */
function openSettings(options: RunOptions, { models, services, onNote }: SearchHost) {
  return {
    models,
    images: services.images,
    // A resumed run opens with the split it was made with.
    seed: seedsOf(options).split,
    protocol: options.protocol,
    onNote,
    ...(options.data ? { data: options.data } : {}),
    ...(options.strict ? { strict: true } : {}),
  };
}

/**
 * The run's environment: a new run's as named; a resumed run's as it recorded it (a definition passed again is
 * registered first, so the recorded name finds it in a new process), where what fails is the run's content.
 */
async function openRunEnvironment(
  o: SearchOptions,
  folder: RunFolder,
  options: RunOptions,
  recorded: EnvSource | undefined,
  host: SearchHost,
): Promise<OpenedEnvironment> {
  const open = openSettings(options, host);
  const definition = o.env !== undefined && typeof o.env !== 'string' ? { definition: o.env } : {};
  if (recorded) checkRunTrust(folder.dir, recorded, options.env, o.trustRun, 'resuming it', host.onNote);
  const opened = recorded
    ? await asContent(() => openEnv({ recorded, copy: readEnvCopy(folder.dir), ...definition }, open))
    : await openEnv({ named: o.env as EnvInput }, open);
  if (opened.changed) host.onNote(opened.changed);
  return opened;
}

/**
 * Locks the run folder and returns its release: a new run's folder is locked before run.json is written into it
 * (with a copy of the environment), a resumed run's when it is taken up.
 */
function takeUpFolder(
  o: SearchOptions,
  folder: RunFolder,
  options: RunOptions,
  opened: OpenedEnvironment,
  info: EnvironmentInfo,
  { models, onNote }: SearchHost,
): () => void {
  if (o.resume) return asUsageSync(() => folder.lock());
  const release = asUsageSync(() =>
    folder.create({
      format: RUN_FORMAT,
      createdAt: new Date().toISOString(),
      options,
      env: info as unknown as Record<string, unknown>,
      envSource: opened.source,
      models: Object.fromEntries(ROLES.map((r) => [r, models[r] ? describeModel(models[r]) : null])),
      versions: versions(),
    }),
  );
  copyEnvironment(folder.dir, opened);
  if (folder.unmarked)
    onNote(
      `the run is not marked as this user's (${folder.unmarked}): its --resume and export will ask for --trust-run`,
    );
  return release;
}

/** The search itself, on the executor its options ask for (in process, worker processes, a queue). */
async function searchOn(
  o: SearchOptions,
  folder: RunFolder,
  options: RunOptions,
  { env, source }: OpenedEnvironment,
  info: EnvironmentInfo,
  host: SearchHost,
): Promise<SearchResult> {
  const { models, services, onNote } = host;
  const protocol = options.protocol;
  let jobs: Executor | undefined;
  try {
    jobs = await createExecutor(
      {
        ...(o.workers !== undefined
          ? { workers: o.workers, jobsPerWorker: Math.ceil((options.parallel ?? 1) / Math.max(1, o.workers)) }
          : {}),
        ...(o.queue ? { queue: o.queue } : {}),
      },
      {
        env,
        source,
        openSeed: seedsOf(options).split,
        protocol,
        ...(options.data ? { data: options.data } : {}),
        services,
        onNote,
        ...(o.queue ? queueSalt(folder.dir, onNote) : {}),
      },
    );
    const envFacts = { name: info.name, mode: info.mode, reward: info.reward, source };
    const validation = (await validationOf(env, options)).plan;
    o.onStart?.({
      runFolder: folder.dir,
      resumed: o.resume ?? false,
      options,
      env: envFacts,
      meta:
        options.meta === 'model'
          ? `model (${describeModel(models.meta)}; ${options.clustering === 'metadata' ? 'metadata groups' : 'CluE clusters'})`
          : 'offline',
      evaluation: jobs.executor.where,
      validation,
      protocol,
    });
    const summary = await runSearch({
      env,
      services,
      meta: createMetaAgent(options.meta, models, {
        ...(options.clustering ? { clustering: options.clustering } : {}),
        ...(o.analysis ? { analysis: o.analysis } : {}),
        ...(o.metaMaxTokens ? { maxTokens: o.metaMaxTokens } : {}),
      }),
      folder,
      options,
      models,
      ledger: new CostLedger(),
      ...(o.onEvent ? { onEvent: o.onEvent } : {}),
      ...(o.onProgress ? { onProgress: o.onProgress } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.beforeStep ? { beforeStep: o.beforeStep } : {}),
      jobs: { executor: jobs.executor, env: jobs.ref },
    });
    const sources = sourceScoresOf(folder.journalPath, summary.winner.id);
    return {
      runFolder: folder.dir,
      env: envFacts,
      evaluation: jobs.executor.where,
      validation,
      protocol,
      ...summary,
      ...(sources ? { sources } : {}),
    };
  } finally {
    await jobs?.executor.close();
  }
}

/**
 * The secret this run's job ids on a queue are made with: this user's, for this run folder, so a resume by the same
 * user finds the jobs in flight or finished, and nobody else can derive the ids. Without a user key, one of this
 * session's (a resume runs its jobs again).
 */
function queueSalt(dir: string, onNote: (m: string) => void): { jobSalt?: string } {
  try {
    return { jobSalt: userMac('queue-job-ids', resolve(dir)) };
  } catch (err) {
    onNote(`${(err as Error).message}: this session's job ids are its own, and a resume runs its jobs again`);
    return {};
  }
}

/** Keeps the environment's files in the run folder (run-store/env-copy.ts): what --resume and export fall back on. */
function copyEnvironment(dir: string, opened: OpenedEnvironment): void {
  const { source, files } = opened;
  if (source.kind === 'module') writeEnvCopy(dir, files, source.path, 'module');
  // A data file is named as the data reader found it (links followed); a folder as given.
  else if (files && source.arg !== undefined)
    writeEnvCopy(dir, files, statSync(source.arg).isFile() ? files.paths[0] : resolve(source.arg), 'data');
}

/** Versions of what ran, for run.json. */
export function versions(): Record<string, string> {
  const v = (pkg: string) => {
    try {
      return JSON.parse(readFileSync(join(installedPackageDir(pkg), 'package.json'), 'utf8')).version as string;
    } catch {
      return 'unknown';
    }
  };
  return {
    automemo: JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version,
    node: process.version,
    'isolated-vm': v('isolated-vm'),
    typescript: v('typescript'),
    esbuild: v('esbuild'),
  };
}
