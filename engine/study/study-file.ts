// What a study records (study.json): its options, and per environment the floor (the standard designs on test and on
// validation), each search (its pick's search-validation and test scores with the per-task rewards the paired tests
// need, and its best validation score over steps), and the transfer of each pick to the other environments. A study
// folder is a file a user may receive: everything is read back through these schemas, bounded, and every path in it
// is a safe relative path inside the study. The statistics are not stored: analysis.ts computes them from this, so
// the tables and figures (viewer/study/) can never disagree with the data.
import { z } from 'zod';
import { SafeNameSchema, SafeRelPathSchema } from '../../foundation/safe-path.ts';
import { MAX_SEED } from '../run-seeds.ts';
import { ProtocolSchema } from '../environment/protocol.ts';

export const STUDY_FORMAT = 'automemo-study/1';
/** Environments in one study, at most. */
export const MAX_STUDY_ENVS = 16;
/** Search seeds per environment (--repeat), at most. */
export const MAX_REPEAT = 32;
/** Tasks of one evaluation a study keeps rewards of, at most. */
export const MAX_STUDY_TASKS = 100_000;
/** study.json, at most. */
export const MAX_STUDY_BYTES = 256 * 2 ** 20;


const Text = (max: number) => z.string().max(max);
const Score = z.number().min(0).max(1);

/** Per task: its id and reward (null: infrastructure failed it; it counts in no mean). */
export const TaskRewardsSchema = z.array(z.tuple([Text(1000), Score.nullable()])).max(MAX_STUDY_TASKS);
export type TaskRewards = z.infer<typeof TaskRewardsSchema>;

/** A score per source of a composed environment (engine/environment/compose.ts). */
export const BySourceSchema = z.array(z.object({ source: Text(200), tasks: z.number().int().min(0), score: Score.nullable() }).strict()).max(64);

/** One evaluation of one program on one split: its score, its per-task rewards and where its evidence is. */
export const StudyEvaluationSchema = z
  .object({
    program: Text(4096),
    score: Score.nullable(),
    tasks: z.number().int().min(0),
    rewards: TaskRewardsSchema,
    /** Mean of each further metric the environment reports (evidence recall beside a reader's score). */
    metrics: z.record(Text(100), z.number()).refine((m) => Object.keys(m).length <= 64, 'at most 64 metrics').optional(),
    bySource: BySourceSchema.optional(),
    /** The evidence folder, relative to the study folder. */
    evidence: SafeRelPathSchema.optional(),
  })
  .strict();
export type StudyEvaluation = z.infer<typeof StudyEvaluationSchema>;

export const StudyFailureSchema = z.object({ program: Text(4096), reason: Text(4000) }).strict();

export const StudySearchSchema = z
  .object({
    /** The search's run seed (the split seed is the study's). */
    seed: z.number().int().min(0).max(MAX_SEED),
    /** The search's run folder, relative to the study folder. */
    run: SafeRelPathSchema,
    status: z.enum(['done', 'failed']),
    error: Text(4000).optional(),
    /** The search's pick: its node and program folder (relative to the study folder). */
    pick: z.object({ node: SafeNameSchema, program: SafeRelPathSchema }).strict().optional(),
    /** The pick's mean score on the validation the meta agent saw (search validation). */
    validation: Score.nullable().optional(),
    /** The pick's score on the validation kept for selection only, when the search kept one. */
    selection: Score.nullable().optional(),
    /** The pick's per-task validation rewards (mean over its evaluations), for the paired tests. */
    validationRewards: TaskRewardsSchema.optional(),
    /** The pick on the test split, as the search evaluated it. */
    test: StudyEvaluationSchema.optional(),
    /** Best mean validation score in the tree after each completed step. */
    curve: z.array(z.object({ step: z.number().int().min(0), best: z.number() }).strict()).max(10_001).optional(),
    steps: z.number().int().min(0).optional(),
  })
  .strict();
export type StudySearch = z.infer<typeof StudySearchSchema>;

export const StudyTransferSchema = z
  .object({
    /** The search (its run seed) whose pick was transferred. */
    seed: z.number().int().min(0).max(MAX_SEED),
    /** The environment it was evaluated on (an index into environments). */
    target: z.number().int().min(0).max(MAX_STUDY_ENVS - 1),
    evaluation: StudyEvaluationSchema.optional(),
    error: Text(4000).optional(),
  })
  .strict();
export type StudyTransfer = z.infer<typeof StudyTransferSchema>;

/** A finished test evaluation scored again by another reader (Environment.readers: a second offline reader, evidence recall, a model). */
export const StudyRereadSchema = z
  .object({
    reader: Text(200),
    /** The best design's name, or the pick of a search (then `seed`). */
    program: Text(4096),
    seed: z.number().int().min(0).max(MAX_SEED).optional(),
    score: Score.nullable(),
    rewards: TaskRewardsSchema,
  })
  .strict();
export type StudyReread = z.infer<typeof StudyRereadSchema>;

export const StudyEnvSchema = z
  .object({
    /** Its place in the study (the order given). */
    index: z.number().int().min(0).max(MAX_STUDY_ENVS),
    /** --env as given (for the joint search, the composed spec). */
    spec: Text(4096),
    /** Its folder in the study, relative to it. */
    folder: SafeRelPathSchema,
    /** As the environment names itself, once opened. */
    name: Text(200).optional(),
    reward: Text(500).optional(),
    mode: z.enum(['offline', 'model']).optional(),
    /** It failed to open (or its floor could not run): why. The other environments go on. */
    error: Text(4000).optional(),
    floor: z
      .object({
        test: z.array(StudyEvaluationSchema).max(64),
        validation: z.array(StudyEvaluationSchema).max(64),
        failures: z.array(StudyFailureSchema).max(128),
      })
      .strict(),
    searches: z.array(StudySearchSchema).max(MAX_REPEAT),
    transfer: z.array(StudyTransferSchema).max(MAX_REPEAT * MAX_STUDY_ENVS),
    /** The best design and each pick scored on test by the environment's other readers. */
    readers: z.array(StudyRereadSchema).max(16 * (MAX_REPEAT + 1)).optional(),
  })
  .strict();
export type StudyEnv = z.infer<typeof StudyEnvSchema>;

export const StudyOptionsSchema = z
  .object({
    envs: z.array(Text(4096)).min(1).max(MAX_STUDY_ENVS),
    /** The run seeds of every environment's searches (--repeat N: 0 … N−1 from --seed). */
    runSeeds: z.array(z.number().int().min(0).max(MAX_SEED)).min(1).max(MAX_REPEAT),
    /** One split for every search, the floor and the transfer, so their test tasks are the same. */
    splitSeed: z.number().int().min(0).max(MAX_SEED),
    budget: z.number().int().min(0).max(10_000),
    meta: z.enum(['model', 'offline']),
    /** The standard designs of the floor. */
    designs: z.array(Text(200)).min(1).max(32),
    protocol: ProtocolSchema,
    joint: z.boolean(),
    transfer: z.boolean(),
    data: Text(4096).optional(),
    evalFraction: z.number().gt(0).max(1).optional(),
    minEvalTasks: z.number().int().min(0).max(100_000).optional(),
    parallel: z.number().int().min(1).max(64).optional(),
  })
  .strict();
export type StudyOptions = z.infer<typeof StudyOptionsSchema>;

export const StudyFileSchema = z
  .object({
    format: z.literal(STUDY_FORMAT),
    createdAt: Text(64),
    updatedAt: Text(64),
    status: z.enum(['running', 'finished', 'interrupted']),
    options: StudyOptionsSchema,
    /** What a memory asked test questions learned from, in words (the same for the floor, the picks and the transfer). */
    protocol: Text(2000),
    /** How evaluations ran (this process, local workers, a queue), as the last session said. */
    evaluation: Text(500).optional(),
    environments: z.array(StudyEnvSchema).max(MAX_STUDY_ENVS),
    /** --joint: one search over every environment composed into one, with its floor (no transfer). */
    joint: StudyEnvSchema.optional(),
    /** Wall time of every session so far, in ms. */
    wallMs: z.number().min(0).optional(),
    versions: z.record(Text(100), Text(200)).optional(),
  })
  .strict();
export type StudyFile = z.infer<typeof StudyFileSchema>;

/** A fresh record for one environment: nothing done yet. */
export function emptyStudyEnv(index: number, spec: string, folder: string): StudyEnv {
  return { index, spec, folder, floor: { test: [], validation: [], failures: [] }, searches: [], transfer: [] };
}

/** Rewards as a map for the paired tests (tasks infrastructure failed are left out: they have no reward). */
export function rewardMap(rewards: TaskRewards | undefined): Map<string, number> {
  return new Map((rewards ?? []).filter((r): r is [string, number] => r[1] !== null));
}
