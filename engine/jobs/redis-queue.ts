// Jobs through Redis and BullMQ, to `automemo worker --queue` processes on this or other machines. The job id is the
// job's idempotency key, so adding it again (a retry, or a resumed search re-attaching to a job still in flight or
// finished while it was away) finds the one job. A worker that dies mid-job is BullMQ's stall handling: the job goes
// back to the queue once; stalled twice, it is the program's failure. A worker that refuses a job (other automemo,
// other environment) stops the search as an infrastructure failure, naming the worker and why.
import { createHmac, randomBytes } from 'node:crypto';
import { Job as QueueJob, Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { ToolchainError } from '../../sandbox/toolchain-error.ts';
import { unpackEvidence } from './evidence-files.ts';
import { type JobExecutor, queuePriority, type RunHints } from './executor.ts';
import type { ProgressEvent } from '../evaluate/evaluate.ts';
import { type Job, type JobOutput, parseJobOutput, parseProgress } from './job.ts';
import { digestOf, jobDigest } from './job-digest.ts';
import { KEEP_SECONDS, QUEUE_NAME, REFUSED, STALLED_REASON } from './queue-names.ts';
import { connectionOptions, parseRedisUrl, type RedisTarget } from './redis-url.ts';

export class RedisQueueExecutor implements JobExecutor {
  readonly where: string;
  /** Where each job in flight reports its progress, by job id. */
  private readonly listeners = new Map<string, (event: ProgressEvent) => void>();

  private constructor(
    readonly slots: number,
    private readonly target: RedisTarget,
    private readonly queue: Queue,
    private readonly events: QueueEvents,
    private readonly salt: string,
  ) {
    this.where = `workers behind ${target.shown}`;
    events.on('progress', ({ jobId, data }) => {
      const listener = this.listeners.get(jobId);
      const event = listener && parseProgress(data);
      if (event) listener(event);
    });
  }

  /**
   * Connects, failing fast with the address when Redis cannot be reached. `salt`: the secret job ids are made with
   * (queueJobId); a search gives one of its run's, so a resumed search finds its jobs again; without it, one of
   * this call's own.
   */
  static async connect(url: string, o: { salt?: string } = {}): Promise<RedisQueueExecutor> {
    const target = parseRedisUrl(url);
    await reachable(target);
    const connection = connectionOptions(target);
    const queue = new Queue(QUEUE_NAME, { connection });
    const events = new QueueEvents(QUEUE_NAME, { connection });
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    // Each job in flight waits with one listener on each, released when it settles; shards put hundreds in flight.
    queue.setMaxListeners(0);
    events.setMaxListeners(0);
    // The queue schedules: callers may keep more jobs in flight than workers serve now (more may join).
    const workers = await queue.getWorkersCount();
    return new RedisQueueExecutor(
      Math.max(16, workers),
      target,
      queue,
      events,
      o.salt ?? randomBytes(32).toString('hex'),
    );
  }

  async run(job: Job, hints: RunHints): Promise<JobOutput> {
    const id = queueJobId(job, this.salt);
    const added = await this.queue.add(job.kind, job, {
      jobId: id,
      removeOnComplete: { age: KEEP_SECONDS },
      removeOnFail: { age: KEEP_SECONDS },
      // BullMQ serves priority 0 (none) first, then 1, 2, …: the local pool's order.
      priority: queuePriority(hints),
    });
    // The id may name a job added before: this one (a resume re-attaches to it), or one someone else put there,
    // which is never taken for this one. A job of ours that failed for a reason other than its program runs again.
    const existing = await QueueJob.fromId(this.queue, id);
    if (existing && sameJob(existing.data, job) === false) {
      throw new ToolchainError(
        'workers',
        `the queue at ${this.target.shown} holds another job under the id of ${job.key} (put there by someone else, or changed since): it is not taken for this one`,
      );
    }
    if (existing && (await existing.getState()) === 'failed' && existing.failedReason !== STALLED_REASON)
      await existing.retry('failed');
    let value: unknown;
    if (hints.onProgress) this.listeners.set(id, hints.onProgress);
    try {
      value = await abortable(added.waitUntilFinished(this.events), hints.signal);
    } catch (err) {
      if (hints.signal?.aborted) throw err;
      const reason = String((err as Error)?.message ?? err);
      if (reason === STALLED_REASON) {
        return {
          key: job.key,
          worker: this.target.shown,
          programFailure: `the ${job.kind === 'evaluate' ? 'evaluation' : 'quick examination'} killed its worker twice (BullMQ: job stalled more than allowable limit)`,
        };
      }
      if (reason.startsWith(REFUSED)) throw new ToolchainError('workers', reason.slice(REFUSED.length), { cause: err });
      // Whatever a worker threw is its failure (or a rogue one's), never the program's: the search stops, naming it.
      throw new ToolchainError(
        'workers',
        `${await this.workerOf(id)} failed ${job.key}: ${reason.split('\n')[0]?.slice(0, 2000)}`,
        { cause: err },
      );
    } finally {
      this.listeners.delete(id);
    }
    const from = await this.workerOf(id);
    const out = parseJobOutput(value, from, job);
    if (out.evidence) {
      if (!hints.evidenceDir)
        throw new ToolchainError('workers', `${from} returned evidence for ${job.key}, which has no evidence folder`);
      try {
        unpackEvidence(hints.evidenceDir, out.evidence);
      } catch (err) {
        // What a worker sent is its failure, never the program's.
        throw new ToolchainError(
          'workers',
          `${from} returned evidence for ${job.key} that cannot be kept: ${(err as Error).message}`,
          { cause: err },
        );
      }
    }
    const { evidence: _landed, ...rest } = out;
    return { ...rest, worker: from };
  }

  /** The worker that took the job, as BullMQ recorded it, and where: for messages (a rogue worker may name itself anything). */
  private async workerOf(id: string): Promise<string> {
    const taken = await QueueJob.fromId(this.queue, id).catch(() => undefined);
    return `worker "${String(taken?.processedBy ?? 'unknown').slice(0, 200)}" behind ${this.target.shown}`;
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.events.close(), this.queue.close()]);
  }
}

/**
 * The job's id in the queue: its key, readable, and a keyed digest of the whole job (job-digest.ts: automemo's
 * version, the program, the environment's content hash, the split's tasks, the seed, the limits) under `salt`, a
 * secret of the producer's. The same job of the same producer has the same id (a retry, or a resumed search,
 * finds it in flight or finished); a job on other data, code or limits has another; and nobody without the secret
 * can derive the id to publish a job of their own under it first.
 */
export function queueJobId(job: Job, salt: string): string {
  return `${job.key}#${createHmac('sha256', salt).update(jobDigest(job)).digest('hex').slice(0, 32)}`;
}

/** Whether the data a queue holds under a job's id is that job; false for anything else (malformed, or no canonical form). */
function sameJob(data: unknown, job: Job): boolean {
  try {
    return digestOf(data) === jobDigest(job);
  } catch {
    return false;
  }
}

/** Fails fast, naming the address, when Redis cannot be reached (ioredis alone would retry for ever). */
export async function reachable(target: RedisTarget): Promise<void> {
  const probe = new Redis({
    ...connectionOptions(target),
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
  } catch (err) {
    throw new ToolchainError('workers', `cannot reach Redis at ${target.shown}: ${(err as Error).message}`);
  } finally {
    probe.disconnect();
  }
}

/** `p`, or the signal's reason once it aborts; `p` is never left without a handler (its rejection would go unhandled). */
function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      p.catch(() => undefined);
      return reject(signal.reason);
    }
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
