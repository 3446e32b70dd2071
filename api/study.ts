// study(): a result a researcher can publish, in one call. Per environment: the floor (the standard designs on test and
// on validation, through baselines()), the searches (one per run seed, through search(), each a run folder inside the
// study), then the transfer of every pick to every environment's test split (through evaluate()), and optionally one
// joint search over all the environments composed into one. The calls are the individual commands' own, with their
// executors (workers, a queue): a study spreads over machines exactly as they do, and every number in it is what
// they print. study.json is rewritten after each finished piece and the tables and the page rendered from it; a
// resumed study reads back what finished and resumes each unfinished search from its own journal.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type StudyAnalysis } from '../engine/study/analysis.ts';
import { protocolStatement } from '../engine/environment/protocol.ts';
import {
  emptyStudyEnv,
  STUDY_FORMAT,
  type StudyEnv,
  type StudyFile,
  type StudyOptions as RecordedOptions,
} from '../engine/study/study-file.ts';
import type { Split } from '../engine/environment/contract.ts';
import { MAX_SEED } from '../engine/run-seeds.ts';
import { type ResolvedModels, resolveModels } from '../foundation/llm/models.ts';
import { toSafeName } from '../foundation/safe-path.ts';
import { UsageError, asUsageSync } from '../foundation/usage-error.ts';
import { RunFolder } from '../run-store/run-folder.ts';
import { StudyFolder } from '../run-store/study-folder.ts';
import { renderReport } from '../viewer/report.ts';
import { writeStudyOutputs } from '../viewer/study/render.ts';
import { baselines, evaluate } from './evaluate.ts';
import { search, versions } from './search.ts';
import { evaluationRecord, finishedFloor, searchRecord, studyPath } from './study-records.ts';
import { rereadEnv } from './study-readers.ts';
import { checkOptions, type OptionValues, withDefaults } from './options/derive.ts';

/** What study() takes: the options declared for `study` (api/options/catalog.ts), and the calls' own parts below. */
export type StudyOptions = OptionValues<'study'> & StudyCalls;

export interface StudyCalls {
  models?: ResolvedModels;
  workers?: number;
  queue?: string;
  signal?: AbortSignal;
  onNote?: (message: string) => void;
  /** Each piece as it starts. */
  onPhase?: (phase: StudyPhase) => void;
  /** Called before each piece; a throw there ends the study as a kill would (tests use it to kill at a boundary). */
  beforePhase?: (phase: StudyPhase) => void | Promise<void>;
  /** Called as each step of a search starts; a throw ends it as a kill would. */
  beforeStep?: (search: { env: number; seed: number }, step: number) => void;
}

export type StudyPhase =
  | { kind: 'floor'; env: number; spec: string; split: Split; programs: string[] }
  | { kind: 'search'; env: number; spec: string; seed: number; resumed: boolean }
  | { kind: 'transfer'; env: number; seed: number; target: number }
  | { kind: 'readers'; env: number; spec: string }
  | { kind: 'render' };

export interface StudyResult {
  folder: string;
  study: StudyFile;
  analysis: StudyAnalysis;
  /** study.md, study.csv, study.tex, study.html. */
  outputs: string[];
  interrupted?: boolean;
}

class Interrupted extends Error {}

/** The recorded options of a new study, from what was asked. */
function recordedOptions(given: StudyOptions, models: ResolvedModels): RecordedOptions {
  const o = withDefaults('study', given);
  if (!o.env?.length)
    throw new UsageError('give env: one or more environments (a registered name, a module path, data:<file>)');
  if (!o.out) throw new UsageError('give out: the study folder');
  const meta = o.meta ?? (models.meta ? 'model' : 'offline');
  if (meta === 'model' && !models.meta)
    throw new UsageError('meta "model" needs a model: set AUTOMEMO_META_MODEL (and OPENAI_BASE_URL / OPENAI_API_KEY)');
  const first = o.seed ?? 0;
  const repeat = o.repeat;
  if (first + repeat - 1 > MAX_SEED)
    throw new UsageError(`seed ${first} with repeat ${repeat} passes the largest seed ${MAX_SEED}`);
  return {
    envs: o.env,
    runSeeds: Array.from({ length: repeat }, (_, i) => first + i),
    splitSeed: o.splitSeed ?? 0,
    budget: o.budget,
    meta,
    designs: [...o.designs],
    protocol: o.protocol,
    joint: o.joint,
    transfer: o.transfer,
    ...(o.data ? { data: o.data } : {}),
    ...(o.evalFraction !== undefined ? { evalFraction: o.evalFraction } : {}),
    ...(o.minEvalTasks !== undefined ? { minEvalTasks: o.minEvalTasks } : {}),
    ...(o.parallel !== undefined ? { parallel: o.parallel } : {}),
  };
}

/** What a resume may not change: the study's options are its own. */
const KEPT = [
  'env',
  'repeat',
  'seed',
  'splitSeed',
  'budget',
  'meta',
  'seeds',
  'designs',
  'protocol',
  'joint',
  'transfer',
  'data',
  'evalFraction',
  'minEvalTasks',
] as const;

/** The study to run: a new one created (locked, study.json written), or the one in `out` read back. */
function openStudy(
  o: StudyOptions,
  models: ResolvedModels,
): { folder: StudyFolder; study: StudyFile; release: () => void } {
  if (!o.out)
    throw new UsageError(o.resume ? 'resume needs out: the study folder to continue' : 'give out: the study folder');
  const folder = new StudyFolder(o.out);
  if (o.resume) {
    const given = KEPT.filter((k) => o[k] !== undefined);
    if (given.length) throw new UsageError(`a resumed study keeps its options; leave out ${given.join(', ')}`);
    // Not a study (or not one this automemo reads) is the user's mistake: said plainly, nothing touched.
    const study = asUsageSync(() => folder.read());
    const release = asUsageSync(() => folder.lock());
    return { folder, study: { ...study, status: 'running' }, release };
  }
  const options = recordedOptions(o, models);
  asUsageSync(() => folder.checkNew());
  const release = asUsageSync(() => folder.lock());
  const now = new Date().toISOString();
  const study: StudyFile = {
    format: STUDY_FORMAT,
    createdAt: now,
    updatedAt: now,
    status: 'running',
    options,
    protocol: protocolStatement(options.protocol),
    environments: options.envs.map((spec, i) =>
      emptyStudyEnv(i, spec, `envs/${i}-${toSafeName(spec.replace(/^data:/, ''), 'env').slice(0, 48)}`),
    ),
    ...(options.joint ? { joint: emptyStudyEnv(options.envs.length, options.envs.join(','), 'joint') } : {}),
    versions: versions(),
  };
  return { folder, study, release };
}

interface Session {
  o: StudyOptions;
  folder: StudyFolder;
  study: StudyFile;
  models: ResolvedModels;
  started: number;
  wallBefore: number;
  onNote: (message: string) => void;
}

/** study.json rewritten and the outputs rendered from it: after every finished piece. */
function save(s: Session): string[] {
  s.study.updatedAt = new Date().toISOString();
  s.study.wallMs = s.wallBefore + (Date.now() - s.started);
  s.folder.write(s.study);
  return writeStudyOutputs(s.folder, s.study).paths;
}

async function phase(s: Session, p: StudyPhase): Promise<void> {
  if (s.o.signal?.aborted) throw new Interrupted();
  await s.o.beforePhase?.(p);
  s.o.onPhase?.(p);
}

/** The calls' shared options: where evaluations run, the models, the data. */
function common(s: Session) {
  const { o } = s;
  const opts = s.study.options;
  return {
    models: s.models,
    ...(o.workers !== undefined ? { workers: o.workers } : {}),
    ...(o.queue ? { queue: o.queue } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
    ...(opts.data ? { data: opts.data } : {}),
    ...(o.strict ? { strict: true } : {}),
    splitSeed: opts.splitSeed,
    protocol: opts.protocol,
  };
}

/** The floor on one split: the designs not yet evaluated, through baselines(); false when the environment did not open. */
async function floor(s: Session, env: StudyEnv, split: Split): Promise<boolean> {
  const key = split === 'test' ? 'test' : 'validation';
  const done = new Set(env.floor[key].map((e) => e.program));
  const out = join(s.folder.dir, env.folder, 'floor', key);
  // What a killed batch finished is read back from its results.json and evidence, not run again.
  const recovered = finishedFloor(
    s.folder.dir,
    out,
    s.study.options.designs.filter((d) => !done.has(d)),
  );
  if (recovered.length) {
    env.floor[key].push(...recovered);
    for (const r of recovered) done.add(r.program);
    save(s);
  }
  const programs = s.study.options.designs.filter((d) => !done.has(d));
  if (!programs.length) return true;
  await phase(s, { kind: 'floor', env: env.index, spec: env.spec, split, programs });
  try {
    const r = await baselines({
      env: env.spec,
      programs,
      split,
      seed: s.study.options.runSeeds[0] as number,
      out,
      onNote: (m) => s.onNote(`${env.spec}: ${m}`),
      ...common(s),
    });
    for (const row of r.rows) {
      env.floor[key].push(evaluationRecord(row.name, row.result, studyPath(s.folder.dir, row.evidenceDir)));
      env.name ??= row.result.env.name;
      env.reward ??= row.result.env.reward;
      env.mode ??= row.result.env.mode;
    }
    env.floor.failures = [
      ...env.floor.failures.filter((f) => !programs.includes(f.program)),
      ...r.failures.map((f) => ({ program: f.name, reason: `${key}: ${f.reason}`.slice(0, 4000) })),
    ];
    delete env.error;
    return true;
  } catch (err) {
    if (s.o.signal?.aborted) throw new Interrupted();
    env.error = `cannot run ${env.spec}: ${(err as Error).message}`.slice(0, 4000);
    s.onNote(env.error);
    return false;
  } finally {
    save(s);
  }
}

/** One search of one environment: a new run folder, or the unfinished one resumed from its journal. */
async function runOneSearch(s: Session, env: StudyEnv, seed: number): Promise<void> {
  const had = env.searches.find((x) => x.seed === seed);
  if (had?.status === 'done') return;
  const runDir = join(s.folder.dir, env.folder, `seed-${seed}`);
  const resumed = new RunFolder(runDir).exists();
  await phase(s, { kind: 'search', env: env.index, spec: env.spec, seed, resumed });
  const opts = s.study.options;
  const { protocol: _p, splitSeed: _s, ...shared } = common(s);
  const beforeStep = s.o.beforeStep;
  // What the hook threw ends the study as a kill would, not as the search's failure.
  let killed: unknown;
  const hook = beforeStep
    ? (step: number) => {
        try {
          beforeStep({ env: env.index, seed }, step);
        } catch (err) {
          killed = err;
          throw err;
        }
      }
    : undefined;
  let record;
  try {
    const result = await search({
      ...shared,
      out: runDir,
      ...(resumed
        ? { resume: true }
        : {
            env: env.spec,
            budget: opts.budget,
            seed,
            splitSeed: opts.splitSeed,
            meta: opts.meta,
            protocol: opts.protocol,
            ...(s.o.seeds ? { seeds: s.o.seeds } : {}),
            ...(opts.evalFraction !== undefined ? { evalFraction: opts.evalFraction } : {}),
            ...(opts.minEvalTasks !== undefined ? { minEvalTasks: opts.minEvalTasks } : {}),
          }),
      ...(opts.parallel ? { parallel: opts.parallel } : {}),
      onNote: (m) => s.onNote(`${env.spec} seed ${seed}: ${m}`),
      ...(hook ? { beforeStep: hook } : {}),
    });
    if (result.interrupted) throw new Interrupted();
    if (result.failure) throw new Error(result.failure);
    record = searchRecord(s.folder.dir, seed, result);
    env.name ??= result.env.name;
    env.reward ??= result.env.reward;
    writeFileSync(join(runDir, 'report.html'), renderReport(runDir).html);
  } catch (err) {
    if (err instanceof Interrupted || s.o.signal?.aborted) throw new Interrupted();
    if (killed !== undefined) throw killed;
    record = {
      seed,
      run: studyPath(s.folder.dir, runDir),
      status: 'failed' as const,
      error: (err as Error).message.slice(0, 4000),
    };
    s.onNote(`${env.spec} seed ${seed}: the search failed: ${record.error}`);
  }
  env.searches = [...env.searches.filter((x) => x.seed !== seed), record].sort((a, b) => a.seed - b.seed);
  save(s);
}

/** Each pick of `from` on the test split of every environment that opened (its own too: the diagonal). */
async function transfer(s: Session, from: StudyEnv): Promise<void> {
  for (const found of from.searches) {
    if (found.status !== 'done' || !found.pick) continue;
    for (const target of s.study.environments) {
      if (target.error) continue;
      if (from.transfer.some((t) => t.seed === found.seed && t.target === target.index && t.evaluation)) continue;
      await phase(s, { kind: 'transfer', env: from.index, seed: found.seed, target: target.index });
      const out = join(s.folder.dir, from.folder, 'transfer', `seed-${found.seed}-on-${target.index}`);
      let cell;
      try {
        const r = await evaluate({
          env: target.spec,
          program: join(s.folder.dir, found.pick.program),
          split: 'test',
          seed: found.seed,
          out,
          onNote: (m) => s.onNote(`${target.spec}: ${m}`),
          ...common(s),
        });
        cell = {
          seed: found.seed,
          target: target.index,
          evaluation: evaluationRecord(
            `${from.name ?? from.spec} seed ${found.seed}: ${found.pick.node}`,
            r,
            studyPath(s.folder.dir, r.evidenceDir),
          ),
        };
      } catch (err) {
        if (s.o.signal?.aborted) throw new Interrupted();
        cell = { seed: found.seed, target: target.index, error: (err as Error).message.slice(0, 4000) };
      }
      from.transfer = [...from.transfer.filter((t) => !(t.seed === found.seed && t.target === target.index)), cell];
      save(s);
    }
  }
}

/** The best design and the picks under the environment's other readers (api/study-readers.ts). */
async function readers(s: Session, env: StudyEnv): Promise<void> {
  await phase(s, { kind: 'readers', env: env.index, spec: env.spec });
  const opts = s.study.options;
  try {
    const found = await rereadEnv(
      {
        studyDir: s.folder.dir,
        models: s.models,
        splitSeed: opts.splitSeed,
        protocol: opts.protocol,
        onNote: (m) => s.onNote(`${env.spec}: ${m}`),
        ...(opts.data ? { data: opts.data } : {}),
      },
      env,
    );
    if (found.length) {
      env.readers = [...(env.readers ?? []), ...found];
      save(s);
    }
  } catch (err) {
    if (s.o.signal?.aborted) throw new Interrupted();
    s.onNote(`${env.spec}: the other readers could not score it: ${(err as Error).message}`);
  }
}

/** The floor, the searches and the other readers of one environment (or of the joint one); one that fails is named and left. */
async function environment(s: Session, env: StudyEnv): Promise<void> {
  if (!(await floor(s, env, 'test')) || !(await floor(s, env, 'train'))) return;
  for (const seed of s.study.options.runSeeds) await runOneSearch(s, env, seed);
  await readers(s, env);
}

export async function study(o: StudyOptions = {}): Promise<StudyResult> {
  checkOptions('study', o);
  const models = o.models ?? resolveModels();
  const { folder, study: record, release } = openStudy(o, models);
  const s: Session = {
    o,
    folder,
    study: record,
    models,
    started: Date.now(),
    wallBefore: record.wallMs ?? 0,
    onNote: o.onNote ?? (() => undefined),
  };
  try {
    save(s);
    try {
      for (const env of s.study.environments) await environment(s, env);
      if (s.study.options.transfer) for (const env of s.study.environments) if (!env.error) await transfer(s, env);
      if (s.study.joint) await environment(s, s.study.joint);
      await phase(s, { kind: 'render' });
      s.study.status = 'finished';
    } catch (err) {
      if (!(err instanceof Interrupted)) throw err;
      s.study.status = 'interrupted';
    }
    const outputs = save(s);
    const analysis = writeStudyOutputs(folder, s.study).analysis;
    return {
      folder: folder.dir,
      study: s.study,
      analysis,
      outputs,
      ...(s.study.status === 'interrupted' ? { interrupted: true } : {}),
    };
  } finally {
    release();
  }
}

/** Whether a folder holds a study (what `automemo view` and `automemo report` open as one). */
export function isStudy(dir: string): boolean {
  return existsSync(join(dir, 'study.json'));
}
