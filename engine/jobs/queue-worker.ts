// The serving side of the Redis queue: a BullMQ worker that takes evaluation jobs, checks each (schema, version,
// environment) and runs it in this process, packing the evidence to travel back. A job this worker must not run
// fails at once, unretried, with a reason the search shows; a job it runs and that throws fails with the error.
import { type Job as QueueJob, UnrecoverableError, Worker } from 'bullmq';
import type { ProgressEvent } from '../evaluate/evaluate.ts';
import { DEFAULT_LIMITS } from '../../sandbox/isolate.ts';
import { ToolchainError } from '../../sandbox/toolchain-error.ts';
import { JobSchema } from './job.ts';
import { throttleTasks } from './progress-throttle.ts';
import { QUEUE_NAME, REFUSED } from './queue-names.ts';
import { reachable } from './redis-queue.ts';
import { connectionOptions, parseRedisUrl } from './redis-url.ts';
import { type JobContext, JobRefused, runJob } from './run-job.ts';
import { shareableReason } from './shareable.ts';
import { reasonText } from '../../foundation/reason-text.ts';

/** Task progress goes through Redis at most this often per job (each update is a round trip and a published event). */
const PROGRESS_MS = 250;

export interface ServeOptions {
  url: string;
  /** Jobs this process runs at once (default 1). */
  concurrency?: number;
  /** How long a job's lock lasts without renewal: a dead worker's job is taken back after about this long (default
   * 30 s, or three times the sandbox's per-call CPU limit per concurrent job when that is longer). */
  lockMs?: number;
  context: JobContext;
  onJob?: (event: { key: string; phase: 'start' | 'done' | 'failed'; message?: string }) => void;
}

/**
 * Sends a job's progress through Redis (task events throttled). `flush` waits for the updates sent, so every one is
 * in Redis before the job's completion.
 */
function progressTo(job: QueueJob): { send: (event: ProgressEvent) => void; flush: () => Promise<unknown> } {
  let sent: Promise<unknown> = Promise.resolve();
  return {
    // Progress is for display: a lost update is not worth failing the job for.
    send: throttleTasks((event) => (sent = Promise.all([sent, job.updateProgress(event).catch(() => undefined)])), PROGRESS_MS),
    flush: () => sent,
  };
}

export async function serveQueue(o: ServeOptions): Promise<{ close(): Promise<void>; shown: string }> {
  const target = parseRedisUrl(o.url);
  await reachable(target);
  // A program's call runs synchronously on this thread for up to its CPU limit, and lock renewals wait behind it:
  // the lock outlasts a few such calls of every job this process runs at once.
  const lockDuration = o.lockMs ?? Math.max(30_000, 3 * DEFAULT_LIMITS.callCpuMs * (o.concurrency ?? 1));
  const worker = new Worker(
    QUEUE_NAME,
    async (job) => {
      const parsed = JobSchema.safeParse(job.data);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new UnrecoverableError(`${REFUSED}${o.context.worker}: the job is malformed (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown'})`);
      }
      o.onJob?.({ key: parsed.data.key, phase: 'start' });
      try {
        const progress = progressTo(job);
        const out = await runJob(parsed.data, { ...o.context, onProgress: progress.send });
        await progress.flush();
        o.onJob?.({ key: parsed.data.key, phase: 'done' });
        return out;
      } catch (err) {
        // The whole message in this worker's log; to the queue, only what quotes none of its files (shareable.ts).
        o.onJob?.({ key: parsed.data.key, phase: 'failed', message: reasonText(err, 'failed') });
        // Not the program's: the search stops as an infrastructure failure, saying this.
        if (err instanceof JobRefused || err instanceof ToolchainError) throw new UnrecoverableError(`${REFUSED}${err.message}`);
        throw new Error(`${o.context.worker} failed the job: ${shareableReason(err)}`, { cause: err });
      }
    },
    {
      connection: connectionOptions(target),
      concurrency: o.concurrency ?? 1,
      lockDuration,
      stalledInterval: Math.max(500, Math.round(lockDuration / 2)),
      maxStalledCount: 1,
      name: o.context.worker,
    },
  );
  worker.on('error', () => undefined);
  await worker.waitUntilReady();
  return { close: () => worker.close(), shown: target.shown };
}
