// One unit of evaluation work, as plain data: what a worker on this machine or another one needs to evaluate a
// program (the compiled bundle and its hash, the environment by reference and content hash, the split, the task
// sample, the seed and the limits), and what comes back (the result and its evidence files). Both cross a process
// or a network, so both are checked against these schemas where they arrive.
import { z } from 'zod';
import { ProtocolSchema } from '../environment/protocol.ts';
import { EnvSourceSchema } from '../environment/registry.ts';
import type { EvaluationResult, ProgressEvent } from '../evaluate/evaluate.ts';
import type { QuickExamReport } from '../../sandbox/quick-exam.ts';
import type { SandboxLimits } from '../../sandbox/isolate.ts';
import { ToolchainError } from '../../sandbox/toolchain-error.ts';
import { jobDigest } from './job-digest.ts';

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
    openSeed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1),
    /** What a memory asked test questions learns from (engine/environment/protocol.ts); absent: the default. */
    protocol: ProtocolSchema.optional(),
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

/** Past these a job is not one (an hour a call); a worker lowers what it takes further, to its own maxima. */
const MAX_CALL_MS = 3_600_000;
const FullLimitsSchema = z
  .object({
    heapMb: z.number().positive().max(8192),
    callCpuMs: z.number().positive().max(MAX_CALL_MS),
    callWallMs: z.number().positive().max(MAX_CALL_MS),
    loadMs: z.number().positive().max(MAX_CALL_MS),
  })
  .strict();
const LimitsSchema = FullLimitsSchema.partial();

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
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1),
    /** The sandbox's limits the evaluation is meant under (evalJob sets all four); a reply ran under other limits is refused. */
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
      .refine(
        (f) => Object.values(f).reduce((n, t) => n + t.length, 0) <= MAX_PROGRAM_BYTES,
        `more than ${MAX_PROGRAM_BYTES} characters of source`,
      ),
    /** Where the files are in the run folder: the report names them there, wherever the examination ran. */
    dir: z.string().max(4096),
    env: EnvRefSchema,
    /** Sample episodes and tasks the environment gives (its samples(n)). */
    tasks: z.number().int().min(1).max(100),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1),
  })
  .strict();
export type ExamJob = z.infer<typeof ExamJobSchema>;

export const JobSchema = z.discriminatedUnion('kind', [EvalJobSchema, ExamJobSchema]);
export type Job = EvalJob | ExamJob;

export const EvidenceFileSchema = z.object({ path: z.string().max(600), base64: z.string() }).strict();
export type EvidenceFile = z.infer<typeof EvidenceFileSchema>;

// A worker's reply is a claim. Its result is read against the full shape of what the host's own code reads of it
// (statistics and the environment's info are not read: the host computes them itself, engine/jobs/output-check.ts).
const Ms = z.number().finite().min(0);
const Tokens = z.object({ prompt: Ms, completion: Ms }).strict();

const TaskRecordSchema = z
  .object({
    taskId: z.string().max(1000),
    world: z.string().max(1000),
    scenario: z.string().max(1000),
    source: z.string().max(1000).optional(),
    reward: z.number().min(0).max(1).nullable(),
    success: z.boolean(),
    metrics: z
      .record(z.string().max(200), z.number().finite())
      .refine((m) => Object.keys(m).length <= 100, 'at most 100 metrics'),
    payloadChars: Ms,
    payloadImages: Ms,
    truncated: z.boolean(),
    retrieveMs: Ms,
    agentMs: Ms,
    cached: z.boolean(),
    programError: z.string().max(100_000).optional(),
    infraError: z.string().max(100_000).optional(),
    note: z.string().max(200_000).optional(),
    answer: z.string().max(8_000_000).optional(),
    tokens: Tokens.optional(),
  })
  .strict();

const PrimitiveUsageSchema = z.object({ calls: Ms, errors: Ms, bytesIn: Ms, bytesOut: Ms, ms: Ms }).strict();
const UsageSchema = z.looseObject({
  primitives: z
    .record(z.string().max(100), PrimitiveUsageSchema)
    .refine((p) => Object.keys(p).length <= 100, 'at most 100 primitives'),
  kvBytes: Ms,
  vectorBytes: Ms,
  llmTokens: Tokens,
});

const WorldRecordSchema = z.looseObject({
  world: z.string().max(1000),
  episodes: Ms,
  tasks: Ms,
  updateMs: Ms,
  updateErrors: z
    .array(z.object({ episode: z.string().max(1000), message: z.string().max(100_000) }).strict())
    .max(MAX_TASKS),
  fatal: z.looseObject({ kind: z.string().max(100), message: z.string().max(100_000) }).optional(),
  attempts: Ms,
  usage: UsageSchema.nullable(),
  loadMs: Ms,
});

const ResultSchema = z.looseObject({
  program: z.object({ entry: z.string().max(4096), hash: z.string().max(100) }).strict(),
  split: z.enum(['train', 'test']),
  tasks: z.array(TaskRecordSchema).max(MAX_TASKS),
  worlds: z.array(WorldRecordSchema).max(MAX_TASKS),
  elapsedMs: Ms,
});

const CheckName = z.string().max(100);
const ReportSchema = z.looseObject({
  passed: z.boolean(),
  checks: z.array(z.looseObject({ name: CheckName, ok: z.boolean(), message: z.string().max(100_000) })).max(20),
  payloads: z.array(z.looseObject({ taskId: z.string().max(1000), digest: z.string().max(200) })).max(1000),
  failure: z.looseObject({ check: CheckName, detail: z.string().max(200_000) }).optional(),
  infrastructure: z.string().max(100_000).optional(),
});

export const JobOutputSchema = z
  .object({
    key: z.string().max(400),
    /** Which worker ran it ("host pid"), for the journal and for messages. */
    worker: z.string().max(300),
    /** The digest of the job the worker ran (job-digest.ts): the producer's must be the same. */
    job: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
    /** The sandbox's limits an evaluation ran under (the job's, lowered to the worker's maxima). */
    limits: FullLimitsSchema.optional(),
    /** Set when the job scored: the evaluation, as a local one returns it. */
    result: ResultSchema.optional(),
    /** The evidence folder's files, when the job ran where the run folder is not. */
    evidence: z.array(EvidenceFileSchema).max(MAX_EVIDENCE_FILES).optional(),
    /** Set by an executor (never a worker): the job killed its workers; every task scores 0 with this reason. */
    programFailure: z.string().max(4000).optional(),
    /** A quick examination's report. */
    report: ReportSchema.optional(),
  })
  .strict();

export interface JobOutput {
  key: string;
  worker: string;
  job?: string;
  limits?: SandboxLimits;
  result?: EvaluationResult;
  evidence?: EvidenceFile[];
  programFailure?: string;
  report?: QuickExamReport;
}

/**
 * A job output as a worker sent it (over IPC or a queue), checked against the job sent: a malformed one, one for
 * another job (another key, or the digest of a job other than this one: changed on the queue, or another put under
 * its id), or one saying the program failed — which only the executor decides, when a job killed its workers — is
 * the worker's failure (a ToolchainError naming `from`), never the program's.
 */
export function parseJobOutput(value: unknown, from: string, job: Job): JobOutput {
  const { key } = job;
  const r = JobOutputSchema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new ToolchainError(
      'workers',
      `${from} returned a malformed job result for ${key} (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown'})`,
    );
  }
  if (r.data.key !== key)
    throw new ToolchainError('workers', `${from} returned the result of ${r.data.key.slice(0, 400)} for ${key}`);
  if (r.data.programFailure !== undefined)
    throw new ToolchainError(
      'workers',
      `${from} says the program failed ${key} ("${r.data.programFailure.slice(0, 200)}"); only this process decides that a program failed`,
    );
  // A reply that does not say which job it ran is refused where its result is read (output-check.ts, exam-job.ts).
  if (r.data.job !== undefined && r.data.job !== jobDigest(job)) {
    throw new ToolchainError(
      'workers',
      `${from} returned the output of a job that is not the job sent (${key}): it was changed on the queue, or another job was put under its id`,
    );
  }
  return r.data as unknown as JobOutput;
}

const Name = z.string().max(1000);
const Count = z.number().int().min(0).max(MAX_TASKS);
const ProgressSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('world-start'), world: Name, episodes: Count, tasks: Count }).strict(),
  z
    .object({
      kind: z.literal('task'),
      world: Name,
      taskId: Name,
      reward: z.number().min(0).max(1).nullable(),
      done: Count,
      total: Count,
    })
    .strict(),
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
