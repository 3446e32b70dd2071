// One unit of evaluation work, as plain data: what a worker on this machine or another one needs to evaluate a
// program (the compiled bundle and its hash, the environment by reference and content hash, the split, the task
// sample, the seed and the limits), and what comes back (the result and its evidence files). Both cross a process
// or a network, so both are checked against these schemas where they arrive.
import { z } from 'zod';
import { EnvSourceSchema } from '../environment/registry.ts';
import type { EvaluationResult, ProgressEvent } from '../evaluate/evaluate.ts';
import type { QuickExamReport } from '../../sandbox/quick-exam.ts';

/** A bundle bigger than this is not a memo program (compile output of real programs is far below). */
export const MAX_BUNDLE_BYTES = 16 * 2 ** 20;
/** Evidence of one evaluation as it crosses back: screenshots included, far above any real evaluation's. */
export const MAX_EVIDENCE_BYTES = 256 * 2 ** 20;
export const MAX_EVIDENCE_FILES = 20_000;
const MAX_TASKS = 200_000;

export const EnvRefSchema = z
  .object({
    source: EnvSourceSchema,
    /** The environment's data folder, as the search was given it. */
    data: z.string().max(4096).optional(),
    /** The seed the environment was opened with (a split may depend on it). */
    openSeed: z.number().int().min(0).max(2 ** 31 - 1),
    /** sha256 (16 hex) over the environment's info and source: a worker holding other code or data refuses. */
    hash: z.string().regex(/^[0-9a-f]{16}$/),
  })
  .strict();
export type EnvRef = z.infer<typeof EnvRefSchema>;

export const BundleSchema = z
  .object({
    /** Where the program was compiled from, for messages and stack traces only. */
    entryPath: z.string().max(4096),
    rootDir: z.string().max(4096),
    code: z.string().max(MAX_BUNDLE_BYTES),
    map: z.string().max(4 * MAX_BUNDLE_BYTES),
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    files: z.array(z.string().max(1000)).max(10_000),
  })
  .strict();

const LimitsSchema = z
  .object({ heapMb: z.number().positive().max(8192), callCpuMs: z.number().positive(), callWallMs: z.number().positive(), loadMs: z.number().positive() })
  .partial()
  .strict();

export const EvalJobSchema = z
  .object({
    kind: z.literal('evaluate'),
    /** Run, node, split, evaluation index and program: a job added twice, or retried, is one job. */
    key: z.string().min(1).max(400),
    /** automemo's version and source digest (foundation/version.ts): a worker on other code refuses the job. */
    version: z.string().min(1).max(200),
    program: BundleSchema,
    env: EnvRefSchema,
    split: z.enum(['train', 'test']),
    /** Only these tasks (the evaluation's sample); all of the split when absent. */
    taskIds: z.array(z.string().max(1000)).max(MAX_TASKS).optional(),
    /** Only these worlds (one shard of an evaluation split over workers); all of the split's when absent. */
    worldIds: z.array(z.string().max(1000)).max(MAX_TASKS).optional(),
    seed: z.number().int().min(0).max(2 ** 31 - 1),
    limits: LimitsSchema.optional(),
  })
  .strict();
export type EvalJob = z.infer<typeof EvalJobSchema>;

/** A program's file as the meta agent writes them: flat .ts names. */
const PROGRAM_FILE = /^[A-Za-z0-9][\w.-]{0,63}\.ts$/;
const MAX_PROGRAM_FILES = 200;
const MAX_PROGRAM_BYTES = 4 * 2 ** 20;

export const ExamJobSchema = z
  .object({
    kind: z.literal('quick-exam'),
    key: z.string().min(1).max(400),
    version: z.string().min(1).max(200),
    /** The program's sources by file name, as written; `index.ts` is the entry. */
    files: z
      .record(z.string().regex(PROGRAM_FILE, 'not a program file name'), z.string())
      .refine((f) => 'index.ts' in f, 'the program has no index.ts')
      .refine((f) => Object.keys(f).length <= MAX_PROGRAM_FILES, `more than ${MAX_PROGRAM_FILES} files`)
      .refine((f) => Object.values(f).reduce((n, t) => n + t.length, 0) <= MAX_PROGRAM_BYTES, `more than ${MAX_PROGRAM_BYTES} characters of source`),
    /** Where the files are in the run folder: the report names them there, wherever the examination ran. */
    dir: z.string().max(4096),
    env: EnvRefSchema,
    /** Sample episodes and tasks the environment gives (its samples(n)). */
    tasks: z.number().int().min(1).max(100),
    seed: z.number().int().min(0).max(2 ** 31 - 1),
  })
  .strict();
export type ExamJob = z.infer<typeof ExamJobSchema>;

export const JobSchema = z.discriminatedUnion('kind', [EvalJobSchema, ExamJobSchema]);
export type Job = EvalJob | ExamJob;

export const EvidenceFileSchema = z.object({ path: z.string().max(600), base64: z.string() }).strict();
export type EvidenceFile = z.infer<typeof EvidenceFileSchema>;

const TaskLineSchema = z.looseObject({
  taskId: z.string().max(1000),
  world: z.string().max(1000),
  scenario: z.string().max(1000),
  reward: z.number().min(0).max(1).nullable(),
  success: z.boolean(),
});

const ResultSchema = z.looseObject({
  program: z.object({ entry: z.string(), hash: z.string() }),
  env: z.looseObject({ name: z.string() }),
  split: z.enum(['train', 'test']),
  score: z.number().min(0).max(1).nullable(),
  stats: z.looseObject({ tasks: z.number(), scored: z.number(), score: z.number().nullable() }),
  tasks: z.array(TaskLineSchema).max(MAX_TASKS),
  worlds: z.array(z.looseObject({ world: z.string() })).max(MAX_TASKS),
  elapsedMs: z.number(),
});

export const JobOutputSchema = z
  .object({
    key: z.string().max(400),
    /** Which worker ran it ("host pid"), for the journal and for messages. */
    worker: z.string().max(300),
    /** Set when the job scored: the evaluation, exactly as a local one returns it. */
    result: ResultSchema.optional(),
    /** The evidence folder's files, when the job ran where the run folder is not. */
    evidence: z.array(EvidenceFileSchema).max(MAX_EVIDENCE_FILES).optional(),
    /** The program made the job fail twice (it killed its worker): every task scores 0 with this reason. */
    programFailure: z.string().max(4000).optional(),
    /** A quick examination's report. */
    report: z.looseObject({ passed: z.boolean(), checks: z.array(z.looseObject({ name: z.string(), ok: z.boolean() })).max(20), payloads: z.array(z.looseObject({ taskId: z.string(), digest: z.string() })).max(1000) }).optional(),
  })
  .strict();

export interface JobOutput {
  key: string;
  worker: string;
  result?: EvaluationResult;
  evidence?: EvidenceFile[];
  programFailure?: string;
  report?: QuickExamReport;
}

/** A job output read from a process or a queue, checked; the message names what was wrong. */
export function parseJobOutput(value: unknown, from: string): JobOutput {
  const r = JobOutputSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`${from} returned a malformed job result (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown'})`);
  }
  return r.data as unknown as JobOutput;
}

const Name = z.string().max(1000);
const Count = z.number().int().min(0).max(MAX_TASKS);
const ProgressSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('world-start'), world: Name, episodes: Count, tasks: Count }).strict(),
  z.object({ kind: z.literal('task'), world: Name, taskId: Name, reward: z.number().min(0).max(1).nullable(), done: Count, total: Count }).strict(),
  z.object({ kind: z.literal('world-end'), world: Name, score: z.number().min(0).max(1).nullable() }).strict(),
  z.object({ kind: z.literal('retry'), world: Name, reason: z.string().max(4000), attempt: Count }).strict(),
]);

/** A progress event as a worker sent it, checked; undefined when it is not one (it is dropped, never shown). */
export function parseProgress(value: unknown): ProgressEvent | undefined {
  const r = ProgressSchema.safeParse(value);
  return r.success ? r.data : undefined;
}

/** The idempotency key: the same evaluation of the same program in the same run is one job. */
export function jobKey(run: string, node: string, split: string, index: number, hash: string): string {
  return `${run}/${node}/${split}/${index}/${hash.slice(0, 16)}`;
}
