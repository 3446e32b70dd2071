// search(): the budget-aware tree search as a library call. Options are checked at this edge (a library user
// passes plain objects); the result is what `automemo search --json` prints. Progress arrives as journal events,
// and an AbortSignal stops the search cleanly: journaled, resumable with { resume: true }.
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { EnvSource } from '../engine/environment/registry.ts';
import { CostLedger } from '../foundation/llm/ledger.ts';
import { describeModel, ROLES, type ResolvedModels, resolveModels } from '../foundation/llm/models.ts';
import { createMetaAgent } from '../engine/meta/create.ts';
import { type ModelMetaOptions, ModelMetaOptionsSchema } from '../engine/meta/model/agent.ts';
import { POLICIES, POLICY_NAMES, type PolicyName } from '../engine/search/policies/index.ts';
import { runSearch, type SearchProgress } from '../engine/search/search.ts';
import type { SearchSummary } from '../engine/search/summary.ts';
import type { ProgressEvent } from '../engine/evaluate/evaluate.ts';
import { DEFAULT_MIN_EVAL_TASKS } from '../engine/evaluate/task-sample.ts';
import { DEFAULT_UCB } from '../engine/search/ucb.ts';
import { type ValidationPlan, validationOf } from '../engine/search/validation-sampler.ts';
import { DEFAULT_SELECTION_SHARE } from '../engine/search/selection-holdout.ts';
import { UsageError, asContent, asUsage, asUsageSync } from '../foundation/usage-error.ts';
import { resolveProgram, STANDARD_DESIGNS } from '../memo-programs/registry.ts';
import { installedPackageDir, repoRoot } from '../foundation/paths.ts';
import { userMac } from '../foundation/user-key.ts';
import type { JournalEvent } from '../engine/search/journal-events.ts';
import { MAX_PARALLEL, MAX_SEEDS, protocolOf, type RunOptions, RunOptionsSchema, seedsOf } from '../engine/search/run-options.ts';
import { DEFAULT_PROTOCOL, type Protocol, ProtocolSchema } from '../engine/environment/protocol.ts';
import { MAX_SEED, runSeeds } from '../engine/run-seeds.ts';
import { defaultRunFolder, RUN_FORMAT, RunFolder } from '../run-store/run-folder.ts';
import { readEnvCopy, writeEnvCopy } from '../run-store/env-copy.ts';
import { type EnvInput, type OpenedEnvironment, openNamed, reopenEnv, resolveEnv } from './environments.ts';
import { withHost } from './host.ts';
import { type SourceScores, sourceScoresOf } from './search-sources.ts';
import { checkRunTrust } from './run-trust.ts';
import { createExecutor, type Executor, MAX_WORKERS } from './workers.ts';

export { MAX_PARALLEL, MAX_SEEDS, POLICY_NAMES, seedsOf };

export interface SearchOptions {
  /** A registered name ("locomo", "visual:charts"), a module path ("./my-env.ts"), "data:<file>", or a definition. */
  env?: EnvInput;
  /** Run folder (default search-trees/runs/search-<time> in the working folder: defaultRunFolder). */
  out?: string;
  /** Continue the run in `out` from its journal; budget and maxUsd may be raised. */
  resume?: boolean;
  /** With resume: run the environment code of a run folder this user's automemo did not make (api/run-trust.ts). */
  trustRun?: boolean;
  budget?: number;
  /**
   * Seed programs by name or path, or 'auto' (the default): step 0 screens the standard designs (the baselines and the
   * pipeline seed) on the first validation sample and seeds the tree with the best SCREEN_KEEP of them.
   */
  seeds?: readonly string[] | 'auto';
  meta?: 'model' | 'offline';
  maxUsd?: number;
  /** The run's seed (default 0): the split, the sandbox's random numbers and the search's draws derive from it. */
  seed?: number;
  /** Holds the split fixed whatever the run seed (default: the run seed): repeated runs then share one test split. */
  splitSeed?: number;
  /** How each step picks its action: 'ucb' (default; losing children count), 'ucb-paper', 'greedy', 'random' or 'alma-softmax'. */
  policy?: PolicyName;
  select?: 'lcb' | 'max-mean';
  evalFraction?: number;
  /** Validation tasks each evaluation scores at least, when there are that many (default 30). */
  minEvalTasks?: number;
  /** Steps in flight at once (default 1): model calls of one overlap the evaluations of others. */
  parallel?: number;
  /** How the model meta agent groups evidence: CluE's model-managed cluster pool (default) or metadata groups. */
  clustering?: 'clue' | 'metadata';
  /**
   * How the model meta agent reads the evidence and writes a child: one call per child (every cluster analysed, the
   * proposal and its edits in one reply; default), or an analysis call per program covering its clusters, or one per
   * cluster and a synthesis, each followed by a generation call.
   */
  analysis?: 'child' | 'program' | 'cluster';
  /** The model meta agent's max_tokens per purpose (analysis, generation, …); a reply cut at its limit is asked again with twice it. */
  metaMaxTokens?: ModelMetaOptions['maxTokens'];
  /** The environment's data folder (LoCoMo conversations). */
  data?: string;
  /** Refuse a data: benchmark that loads only in part (a world left out whole) instead of noting it. */
  strict?: boolean;
  /** Evaluate the final choice on the test split (default true). */
  test?: boolean;
  /** What a memory asked test questions learns from: 'update' (default) or 'update+validation' (engine/environment/protocol.ts). */
  protocol?: Protocol;
  /**
   * Share of the validation held out for selection only (default 0.3; 0 holds none out): never shown to the meta
   * agent, where the pick is chosen (engine/search/selection-holdout.ts). Validations under 40 tasks hold none out.
   */
  selectionShare?: number;
  /** Models per role (default: from AUTOMEMO_* environment variables; none means offline). */
  models?: ResolvedModels;
  /** Local worker processes for evaluations (default 0: this process; the CLI's default is cores − 1). */
  workers?: number;
  /** A Redis URL: evaluations go to `automemo worker --queue` processes (wins over workers). */
  queue?: string;
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

const OptionsSchema = z
  .object({
    env: z.union([z.string(), z.object({ name: z.string() }).passthrough()]).optional(),
    out: z.string().min(1).optional(),
    resume: z.boolean().optional(),
    trustRun: z.boolean().optional(),
    budget: z.number().int().min(0).max(10_000).optional(),
    seeds: z
      .union([
        z.literal('auto'),
        z
          .array(z.string().min(1, 'a seed name is empty').max(4096))
          .max(MAX_SEEDS, `at most ${MAX_SEEDS} seeds`),
      ])
      .optional(),
    meta: z.enum(['model', 'offline']).optional(),
    maxUsd: z.number().positive().optional(),
    seed: z.number().int().min(0).max(MAX_SEED).optional(),
    splitSeed: z.number().int().min(0).max(MAX_SEED).optional(),
    policy: z.enum(POLICY_NAMES, { error: `unknown policy; known: ${POLICY_NAMES.join(', ')}` }).optional(),
    select: z.enum(['lcb', 'max-mean']).optional(),
    evalFraction: z.number().gt(0).max(1).optional(),
    minEvalTasks: z.number().int().min(0).max(100_000).optional(),
    parallel: z.number().int().min(1).max(MAX_PARALLEL).optional(),
    clustering: z.enum(['clue', 'metadata']).optional(),
    protocol: ProtocolSchema.optional(),
    selectionShare: z.number().min(0).max(0.5).optional(),
    analysis: ModelMetaOptionsSchema.shape.analysis,
    metaMaxTokens: ModelMetaOptionsSchema.shape.maxTokens,
    data: z.string().optional(),
    strict: z.boolean().optional(),
    test: z.boolean().optional(),
    workers: z.number().int().min(0).max(MAX_WORKERS).optional(),
    queue: z.string().min(1).max(4096).optional(),
  })
  .passthrough();

function checkOptions(o: SearchOptions): void {
  const r = OptionsSchema.safeParse(o);
  if (!r.success)
    throw new UsageError(
      r.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || 'options'}: ${i.message}`)
        .join('; '),
    );
}

/**
 * What a search starts from unless told: the best few of the standard designs (STANDARD_DESIGNS: the baselines and a
 * pipeline of automemo/lib's stages, which the offline agent edits structurally), screened at step 0 on validation.
 */
export const DEFAULT_SEEDS = 'auto';
/** Standard designs an automatic screen keeps as seeds. */
export const SCREEN_KEEP = 3;

/** The run's settings: a new run's from the options, a resumed run's from its run.json. */
function settings(
  o: SearchOptions,
  models: ResolvedModels,
): { folder: RunFolder; options: RunOptions; recorded?: EnvSource } {
  if (o.resume) {
    if (!o.out) throw new UsageError('resume needs out: the run folder to continue');
    const folder = new RunFolder(o.out);
    const info = asUsageSync(() => folder.read());
    const kept = seedsOf(info.options);
    if ((o.seed !== undefined && o.seed !== kept.run) || (o.splitSeed !== undefined && o.splitSeed !== kept.split))
      throw new UsageError(`a resumed run keeps its seeds (seed ${kept.run}, split seed ${kept.split}); leave out seed and splitSeed`);
    // A resumed run keeps its settings; the budget and the dollar cap may be raised.
    const options = {
      ...info.options,
      ...(o.budget !== undefined ? { budget: o.budget } : {}),
      ...(o.maxUsd ? { maxUsd: o.maxUsd } : {}),
      ...(o.parallel ? { parallel: o.parallel } : {}),
    };
    return { folder, options, recorded: info.envSource };
  }
  if (o.env === undefined) throw new UsageError('give env: a registered name, a module path or data:<file>');
  const auto = (o.seeds ?? DEFAULT_SEEDS) === 'auto';
  const seeds = auto ? [] : [...(o.seeds as readonly string[])];
  for (const s of seeds) asUsageSync(() => resolveProgram(s));
  const policy = o.policy ?? 'ucb';
  if (!POLICIES[policy]) throw new UsageError(`unknown policy ${policy}; known: ${Object.keys(POLICIES).join(', ')}`);
  const meta = o.meta ?? (models.meta ? 'model' : 'offline');
  if (meta === 'model' && !models.meta)
    throw new UsageError('meta "model" needs a model: set AUTOMEMO_META_MODEL (and OPENAI_BASE_URL / OPENAI_API_KEY)');
  const drawn = runSeeds(o.seed, o.splitSeed);
  const options = RunOptionsSchema.parse({
    env: typeof o.env === 'string' ? o.env : o.env.name,
    ...(o.data ? { data: o.data } : {}),
    ...(o.strict ? { strict: true } : {}),
    budget: o.budget ?? 20,
    seeds,
    ...(auto ? { screen: { designs: STANDARD_DESIGNS, keep: SCREEN_KEEP } } : {}),
    meta,
    seed: drawn.run,
    splitSeed: drawn.split,
    sandboxSeed: drawn.sandbox,
    ...(o.maxUsd ? { maxUsd: o.maxUsd } : {}),
    policy,
    selection: o.select ?? 'lcb',
    evalFraction: o.evalFraction ?? 0.5,
    minEvalTasks: o.minEvalTasks ?? DEFAULT_MIN_EVAL_TASKS,
    ucb: DEFAULT_UCB,
    repairAttempts: 3,
    quickExamTasks: 5,
    testWinner: o.test ?? true,
    protocol: o.protocol ?? DEFAULT_PROTOCOL,
    selectionShare: o.selectionShare ?? DEFAULT_SELECTION_SHARE,
    ...(o.parallel && o.parallel > 1 ? { parallel: o.parallel } : {}),
    ...(o.clustering ? { clustering: o.clustering } : {}),
  });
  const folder = new RunFolder(o.out ?? defaultRunFolder('search'));
  return { folder, options };
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

export async function search(o: SearchOptions = {}): Promise<SearchResult> {
  checkOptions(o);
  const models = o.models ?? resolveModels();
  const onNote = o.onNote ?? (() => undefined);
  const { folder, options, recorded } = settings(o, models);
  return withHost(models, async (services) => {
    // Said before the environment is opened; checked again under the folder's lock when the run is created.
    if (!o.resume) asUsageSync(() => folder.checkNew());
    // A resumed run opens with the split it was made with.
    const splitSeed = seedsOf(options).split;
    const protocol = protocolOf(options);
    const open = { models, images: services.images, seed: splitSeed, protocol, onNote, ...(options.data ? { data: options.data } : {}), ...(options.strict ? { strict: true } : {}) };
    let opened: OpenedEnvironment;
    // A definition passed again on resume is registered first, so the recorded name finds it in a new process.
    if (o.resume && o.env !== undefined && typeof o.env !== 'string') await asUsage(() => resolveEnv(o.env as EnvInput));
    if (recorded) {
      checkRunTrust(folder.dir, recorded, options.env, o.trustRun, 'resuming it', onNote);
      opened = await asContent(() => reopenEnv(recorded, open, readEnvCopy(folder.dir)));
      if (opened.changed) onNote(opened.changed);
    }
    else opened = await openNamed(o.env as EnvInput, open);
    const { env, source } = opened;
    try {
      const info = env.info();
      // A new run's folder is locked before run.json is written into it; a resumed run's when it is taken up.
      const release = o.resume
        ? asUsageSync(() => folder.lock())
        : asUsageSync(() =>
            folder.create({
              format: RUN_FORMAT,
              createdAt: new Date().toISOString(),
              options,
              env: info as unknown as Record<string, unknown>,
              envSource: source,
              models: Object.fromEntries(ROLES.map((r) => [r, models[r] ? describeModel(models[r]) : null])),
              versions: versions(),
            }),
          );
      if (!o.resume) copyEnvironment(folder.dir, opened);
      if (!o.resume && folder.unmarked) onNote(`the run is not marked as this user's (${folder.unmarked}): its --resume and export will ask for --trust-run`);
      let jobs: Executor | undefined;
      try {
        jobs = await createExecutor(
          {
            ...(o.workers !== undefined ? { workers: o.workers, jobsPerWorker: Math.ceil((options.parallel ?? 1) / Math.max(1, o.workers)) } : {}),
            ...(o.queue ? { queue: o.queue } : {}),
          },
          { env, source, openSeed: splitSeed, protocol, ...(options.data ? { data: options.data } : {}), services, onNote, ...(o.queue ? queueSalt(folder.dir, onNote) : {}) },
        );
        const envFacts = { name: info.name, mode: info.mode, reward: info.reward, source };
        const validation = (await validationOf(env, options)).plan;
        o.onStart?.({
          runFolder: folder.dir,
          resumed: o.resume ?? false,
          options,
          env: envFacts,
          meta: options.meta === 'model' ? `model (${describeModel(models.meta)}; ${options.clustering === 'metadata' ? 'metadata groups' : 'CluE clusters'})` : 'offline',
          evaluation: jobs.executor.where,
          validation,
          protocol,
        });
        const summary = await runSearch({
          env,
          services,
          meta: createMetaAgent(options.meta, models, { ...(options.clustering ? { clustering: options.clustering } : {}), ...(o.analysis ? { analysis: o.analysis } : {}), ...(o.metaMaxTokens ? { maxTokens: o.metaMaxTokens } : {}) }),
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
        return { runFolder: folder.dir, env: envFacts, evaluation: jobs.executor.where, validation, protocol, ...summary, ...(sources ? { sources } : {}) };
      } finally {
        await jobs?.executor.close();
        release();
      }
    } finally {
      await env.close?.();
    }
  });
}

/** Keeps the environment's files in the run folder (run-store/env-copy.ts): what --resume and export fall back on. */
function copyEnvironment(dir: string, opened: OpenedEnvironment): void {
  const { source, files } = opened;
  if (source.kind === 'module') writeEnvCopy(dir, files, source.path, 'module');
  // A data file is named as the data reader found it (links followed); a folder as given.
  else if (files && source.arg !== undefined) writeEnvCopy(dir, files, statSync(source.arg).isFile() ? files.paths[0] : resolve(source.arg), 'data');
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
