// Worker threads each holding the offline embedding model on one backend (each runs single-threaded, so a pool
// uses the machine's cores and keeps the main thread, where the sandboxes run, free).
//
// The queue lives here, on the host side, filed by owner (one per program instance), and each worker gets one
// job at a time. So: work an owner queued is cancelled when the owner ends, never sent; owners take turns (round
// robin), so one owner's backlog delays another by at most about one batch per worker; and while an owner has
// work waiting, the share of the pool that is busy with others or not ready (loading, restarting) is booked to
// it as foreign wait, which the sandbox's watchdog reads before calling a slow call the program's fault.
//
// Workers are referenced only while they load for waiting work or run a job, so an idle pool never keeps the
// process alive. A worker that crashes is replaced, and its job is run once more before it fails as
// infrastructure.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { type EmbedBackend, embedBackendFromEnv } from './embed-backend.ts';
import { EmbedCancelledError, EmbedInfraError, type EmbedOwner } from './embed-owner.ts';

interface Job {
  id: number;
  owner: EmbedOwner;
  texts: string[];
  attempts: number;
  resolve: (vectors: Float32Array[]) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job;
  /** When the job was handed over (performance.now()). */
  sentAt?: number;
  /** The job belongs to an owner that ended: the worker is stopped if it is still at it after a grace period. */
  dropTimer?: NodeJS.Timeout;
}

interface WorkerMessage {
  ready?: boolean;
  backend?: string;
  id?: number;
  dim?: number;
  flat?: Float32Array;
  error?: string;
}

/**
 * What a pool has done since it started. Its utilisation while programs wait on it is busyMs / (size × demandMs):
 * how much of the pool worked while any job was queued or running.
 */
export interface EmbedPoolStats {
  size: number;
  /** Worker-milliseconds spent on jobs (finished, dropped or crashed), plus the jobs in hand so far. */
  busyMs: number;
  /** Milliseconds during which some job was queued or running. */
  demandMs: number;
  jobs: number;
  texts: number;
}

/** How long a worker may go on with a job nobody wants any more before it is stopped (and reloads the model). */
const DROP_GRACE_MS = 1000;
/** How long a stopping worker may take to finish its batch before it is terminated after all. */
const STOP_GRACE_MS = 60_000;
/** Model loads that may fail in a row before the waiting work fails as infrastructure. */
const LOAD_ATTEMPTS = 2;
const MAX_DIM = 65_536;

/** Scales a vector to unit length. */
export function unit(v: ArrayLike<number>): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += (v[i] as number) * (v[i] as number);
  const n = Math.sqrt(s) || 1;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = (v[i] as number) / n;
  return out;
}

export class EmbedPool {
  private readonly slots: (Slot | undefined)[];
  /** Owners with queued jobs, in turn order (the next owner to serve first). */
  private readonly queues = new Map<EmbedOwner, Job[]>();
  private readonly watched = new WeakSet<EmbedOwner>();
  /** Owners currently booked as waiting on others. */
  private readonly waiting = new Set<EmbedOwner>();
  private nextId = 1;
  private loadFailures = 0;
  private closed = false;
  /** Workers started over the pool's life (the first ones included). */
  spawned = 0;
  /** The engine the workers said they run ('onnx-fp32', 'onnx-int8', 'tfjs-wasm'), once one has loaded. */
  running: string | undefined;
  private busyMs = 0;
  private demandMs = 0;
  /** Since when some job has been queued or running (undefined: none is). */
  private demandSince: number | undefined;
  private jobsDone = 0;
  private textsDone = 0;

  constructor(
    readonly size: number,
    readonly backend: EmbedBackend = embedBackendFromEnv(),
    private readonly script: URL = new URL('./embed-worker.mjs', import.meta.url),
  ) {
    this.slots = new Array<Slot | undefined>(size).fill(undefined);
  }

  stats(now = performance.now()): EmbedPoolStats {
    let inHand = 0;
    for (const s of this.slots) if (s?.job && s.sentAt !== undefined) inHand += now - s.sentAt;
    const demand = this.demandMs + (this.demandSince === undefined ? 0 : now - this.demandSince);
    return { size: this.size, busyMs: this.busyMs + inHand, demandMs: demand, jobs: this.jobsDone, texts: this.textsDone };
  }

  /** Embeds one batch for `owner`; rejects with EmbedCancelledError if the owner ends first. */
  run(owner: EmbedOwner, texts: string[]): Promise<Float32Array[]> {
    if (owner.closed) return Promise.reject(new EmbedCancelledError('the program instance ended before this embedding ran'));
    if (this.closed) return Promise.reject(new EmbedInfraError('the embedding pool was closed'));
    if (!this.watched.has(owner)) {
      this.watched.add(owner);
      owner.whenClosed(() => this.ownerEnded(owner));
    }
    return new Promise<Float32Array[]>((resolve, reject) => {
      const job: Job = { id: this.nextId++, owner, texts, attempts: 0, resolve, reject };
      const queue = this.queues.get(owner);
      if (queue) queue.push(job);
      else this.queues.set(owner, [job]);
      this.pump();
    });
  }

  /** Jobs waiting for a worker, over all owners. */
  get queued(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  /** Starts workers for waiting work, hands every idle worker the next owner's next job, then books the waits. */
  private pump(): void {
    if (this.closed) return;
    // One clock reading for the jobs handed out and the demand they open: a job's busy time never starts before
    // the demand it belongs to (posting a batch can take a while on a loaded machine).
    const now = performance.now();
    let starting = this.slots.filter((s) => s && (!s.ready || !s.job)).length;
    for (let i = 0; i < this.size && this.queued > starting; i++) {
      if (!this.slots[i]) {
        this.spawn(i);
        starting++;
      }
    }
    for (const slot of this.slots) {
      if (!slot || !slot.ready || slot.job) continue;
      const job = this.nextJob();
      if (!job) break;
      this.send(slot, job, now);
    }
    this.book(now);
    this.noteDemand(now);
  }

  /** Opens or closes a stretch of demand (some job queued or running). */
  private noteDemand(now: number): void {
    const demand = this.queued > 0 || this.slots.some((s) => s?.job);
    if (demand && this.demandSince === undefined) this.demandSince = now;
    else if (!demand && this.demandSince !== undefined) {
      this.demandMs += now - this.demandSince;
      this.demandSince = undefined;
    }
  }

  /** Round robin: the first owner in turn gives one job and goes to the back of the line. */
  private nextJob(): Job | undefined {
    for (const [owner, queue] of this.queues) {
      this.queues.delete(owner);
      const job = queue.shift();
      if (queue.length) this.queues.set(owner, queue);
      if (job) return job;
    }
    return undefined;
  }

  private send(slot: Slot, job: Job, now: number): void {
    slot.job = job;
    slot.sentAt = now;
    job.owner.jobs.sent++;
    slot.worker.ref();
    slot.worker.postMessage({ id: job.id, texts: job.texts });
  }

  /**
   * Foreign wait: an owner with queued jobs waits on others for the share of workers not running its own job
   * (busy with another owner's, loading the model, restarting). Its own earlier jobs are its own business.
   */
  private book(now: number): void {
    for (const [owner] of this.queues) {
      const mine = this.slots.filter((s) => s?.ready && s.job?.owner === owner).length;
      owner.setForeignRate(now, (this.size - mine) / this.size);
      this.waiting.add(owner);
    }
    for (const owner of this.waiting) {
      if (this.queues.has(owner)) continue;
      owner.setForeignRate(now, 0);
      this.waiting.delete(owner);
    }
  }

  private spawn(i: number): void {
    const worker = new Worker(this.script, { workerData: { backend: this.backend } });
    const slot: Slot = { worker, ready: false };
    this.slots[i] = slot;
    this.spawned++;
    worker.on('message', (m: WorkerMessage) => this.message(i, slot, m));
    worker.on('error', (err) => this.crashed(i, slot, err));
    worker.on('exit', (code) => this.crashed(i, slot, new Error(`embedding worker exited with code ${code}`)));
  }

  private message(i: number, slot: Slot, m: WorkerMessage): void {
    if (this.slots[i] !== slot) return;
    if (m.ready) {
      slot.ready = true;
      if (typeof m.backend === 'string') this.running = m.backend.slice(0, 100);
      this.loadFailures = 0;
      if (!slot.job) slot.worker.unref();
      return this.pump();
    }
    const job = slot.job;
    if (!job || m.id !== job.id) return;
    this.endJob(slot);
    this.jobsDone++;
    this.textsDone += job.texts.length;
    clearTimeout(slot.dropTimer);
    slot.worker.unref();
    if (!job.owner.closed) {
      job.owner.jobs.done++;
      const vectors = m.error === undefined ? unpack(m, job.texts.length) : undefined;
      if (vectors) job.resolve(vectors);
      else job.reject(new EmbedInfraError(`offline embedding model failed: ${m.error ?? 'it answered with malformed vectors'}`));
    }
    this.pump();
  }

  /** A worker died: its job runs once more on a fresh one; a model that will not load fails the waiting work. */
  private crashed(i: number, slot: Slot, err: Error): void {
    if (this.slots[i] !== slot) return;
    this.slots[i] = undefined;
    clearTimeout(slot.dropTimer);
    // It died (an error event): nothing runs in it any more, so terminating it is safe.
    void slot.worker.terminate();
    const job = slot.job;
    this.endJob(slot);
    if (job && !job.owner.closed) {
      job.attempts++;
      if (job.attempts >= 2) job.reject(new EmbedInfraError(`offline embedding worker crashed twice on this batch: ${err.message}`));
      else this.queues.set(job.owner, [job, ...(this.queues.get(job.owner) ?? [])]);
    }
    if (!slot.ready && ++this.loadFailures >= LOAD_ATTEMPTS) {
      this.loadFailures = 0;
      const failure = new EmbedInfraError(`the offline embedding model could not load: ${err.message}`);
      for (const queue of this.queues.values()) for (const j of queue) j.reject(failure);
      this.queues.clear();
    }
    this.pump();
  }

  /** Cancels the owner's queued jobs; jobs in a worker are dropped, and a worker slow to finish one is stopped. */
  private ownerEnded(owner: EmbedOwner): void {
    const queued = this.queues.get(owner) ?? [];
    this.queues.delete(owner);
    const cancelled = new EmbedCancelledError('the program instance ended before this embedding ran');
    for (const job of queued) {
      owner.jobs.cancelled++;
      job.reject(cancelled);
    }
    this.slots.forEach((slot, i) => {
      if (!slot?.job || slot.job.owner !== owner) return;
      owner.jobs.dropped++;
      slot.job.reject(cancelled);
      const job = slot.job;
      slot.dropTimer = setTimeout(() => {
        if (this.slots[i] === slot && slot.job === job) this.retire(i, slot);
      }, DROP_GRACE_MS).unref();
    });
    this.pump();
  }

  /** Stops a worker on purpose (not a crash): its slot is refilled when work waits; it ends once its batch is done. */
  private retire(i: number, slot: Slot): void {
    this.slots[i] = undefined;
    this.endJob(slot);
    void stopWorker(slot.worker);
    this.pump();
  }

  /** The slot's job is over (answered, crashed, stopped): its time counts as busy. */
  private endJob(slot: Slot): void {
    if (slot.sentAt !== undefined) this.busyMs += performance.now() - slot.sentAt;
    slot.job = undefined;
    slot.sentAt = undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    const failure = new EmbedInfraError('the embedding pool was closed');
    for (const queue of this.queues.values()) for (const job of queue) job.reject(failure);
    this.queues.clear();
    this.book(performance.now());
    const slots = this.slots.splice(0).filter((s): s is Slot => s !== undefined);
    for (const s of slots) {
      clearTimeout(s.dropTimer);
      if (s.job && !s.job.owner.closed) s.job.reject(failure);
    }
    await Promise.all(slots.map((s) => stopWorker(s.worker)));
  }
}

/**
 * Asks a worker to end once the batch in hand is done (embed-worker.mjs) and waits for it to exit; terminated only if it
 * has not after STOP_GRACE_MS. Terminating a worker while ONNX Runtime runs a batch aborts the process.
 */
function stopWorker(worker: Worker): Promise<void> {
  return new Promise<void>((resolve) => {
    // Held until it has exited: a process that ended around a running batch would abort the same way.
    worker.ref();
    const timer = setTimeout(() => void worker.terminate().then(() => resolve()), STOP_GRACE_MS);
    timer.unref();
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      worker.postMessage({ stop: true });
    } catch {
      clearTimeout(timer);
      void worker.terminate().then(() => resolve());
    }
  });
}

/** The worker's answer as unit vectors, or undefined when it is not n vectors of one sane dimension. */
function unpack(m: WorkerMessage, n: number): Float32Array[] | undefined {
  const dim = m.dim;
  const flat = m.flat;
  if (!(flat instanceof Float32Array) || !Number.isInteger(dim) || (dim as number) < 1 || (dim as number) > MAX_DIM) return undefined;
  if (flat.length !== n * (dim as number)) return undefined;
  const d = dim as number;
  return Array.from({ length: n }, (_, i) => unit(flat.subarray(i * d, (i + 1) * d)));
}

const pools = new Map<EmbedBackend, EmbedPool>();

/** The process's pool of offline embedding workers on a backend (two at most: each holds a copy of the model). */
export function embedPool(backend: EmbedBackend = embedBackendFromEnv()): EmbedPool {
  let pool = pools.get(backend);
  if (!pool) pools.set(backend, (pool = new EmbedPool(Math.max(1, Math.min(2, availableParallelism())), backend)));
  return pool;
}

/** Stops the embedding worker threads (they also never keep the process alive while idle). */
export async function stopEmbedPool(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close()));
}
