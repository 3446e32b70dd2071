// Local worker processes: N children of this process, each running one job at a time with its own isolates and
// embedding workers, so evaluations of different programs compute on different cores. A worker that dies (kill -9,
// out of memory) is replaced and its job retried once; a job that kills a second worker is the program's failure,
// with the reason, and never touches another job. Workers that die before they start stop the pool, saying why.
import { type ChildProcess, spawn } from 'node:child_process';
import { setAsideEvidence } from '../evaluate/evidence-aside.ts';
import { automemoVersion } from '../../foundation/version.ts';
import { ToolchainError } from '../../sandbox/toolchain-error.ts';
import { EnvironmentFailure } from '../environment/contract.ts';
import { type JobExecutor, queuePriority, type RunHints } from './executor.ts';
import type { FromWorker, ToWorker } from './ipc-protocol.ts';
import { type Job, type JobOutput, parseJobOutput, parseProgress } from './job.ts';
import type { EnvVars } from '../../foundation/env-vars.ts';

/** How a worker process is started: node with these arguments (the CLI's `worker --ipc`). */
export interface WorkerCommand {
  args: string[];
  env?: EnvVars;
}

/** A job runs at most this many times on workers that die under it. */
const MAX_DEATHS = 2;
/** Workers that die before saying they are ready, in a row, before the pool gives up. */
const MAX_START_FAILURES = 3;

interface Pending {
  id: number;
  job: Job;
  hints: RunHints;
  deaths: string[];
  /** It was in a worker that died beside other jobs: it runs alone now, so a death is its own. */
  solo?: boolean;
  resolve: (o: JobOutput) => void;
  reject: (e: unknown) => void;
}

interface Worker {
  child: ChildProcess;
  ready: boolean;
  jobs: Map<number, Pending>;
  stderr: string;
}

export class WorkerPool implements JobExecutor {
  readonly where: string;
  private readonly workers = new Set<Worker>();
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private startFailures = 0;
  private broken: Error | undefined;
  private closing = false;

  /** Jobs all workers run at once. */
  readonly slots: number;

  /** `perWorker`: jobs one worker runs at once (more than one overlaps evaluations that wait on models or browsers). */
  constructor(
    workers: number,
    private readonly command: WorkerCommand,
    private readonly perWorker = 1,
    /** Told when a job goes to a worker process (progress; tests kill that process). */
    private readonly onDispatch?: (pid: number, key: string) => void,
    /** The workers' notes for the user, each said once whichever worker says it. */
    private readonly onNote?: (message: string) => void,
  ) {
    this.slots = workers * perWorker;
    this.where = `${workers} local worker process${workers === 1 ? '' : 'es'}${perWorker > 1 ? `, ${perWorker} jobs each` : ''}`;
    for (let i = 0; i < workers; i++) this.spawnWorker();
  }

  run(job: Job, hints: RunHints): Promise<JobOutput> {
    if (this.broken) return Promise.reject(this.broken);
    const signal = hints.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    let onAbort = () => {};
    const settled = new Promise<JobOutput>((resolve, reject) => {
      const p: Pending = { id: this.nextId++, job, hints, deaths: [], resolve, reject };
      onAbort = () => this.abandon(p, signal?.reason);
      // In priority order; jobs of one priority in the order given.
      const after = this.queue.findIndex((q) => queuePriority(q.hints) > queuePriority(hints));
      this.queue.splice(after < 0 ? this.queue.length : after, 0, p);
      this.dispatch();
    });
    if (!signal) return settled;
    // One search signal outlives hundreds of jobs: each job's listener goes when the job does.
    signal.addEventListener('abort', onAbort, { once: true });
    return settled.finally(() => signal.removeEventListener('abort', onAbort));
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const p of this.queue.splice(0)) p.reject(new Error('the worker pool was closed'));
    const exits = [...this.workers].map(
      (w) =>
        new Promise<void>((r) =>
          w.child.exitCode !== null || w.child.signalCode !== null ? r() : w.child.once('exit', () => r()),
        ),
    );
    for (const w of this.workers) w.child.kill('SIGKILL');
    await Promise.all(exits);
  }

  private spawnWorker(): void {
    const child = spawn(process.execPath, ['--no-node-snapshot', ...this.command.args], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: { ...process.env, ...this.command.env, AUTOMEMO_PARENT_PID: String(process.pid) },
    });
    const w: Worker = { child, ready: false, jobs: new Map(), stderr: '' };
    this.workers.add(w);
    child.stderr?.on('data', (d: Buffer) => (w.stderr = (w.stderr + d.toString()).slice(-4000)));
    child.on('message', (m: FromWorker) => this.onMessage(w, m));
    child.on('error', () => undefined);
    child.once('exit', (code, signal) => this.onExit(w, signal ? `killed by ${signal}` : `exit code ${code}`));
  }

  private onMessage(w: Worker, m: FromWorker): void {
    if (m.type === 'ready') {
      if (m.version !== automemoVersion())
        return this.fail(
          new ToolchainError(
            'workers',
            `a local worker holds automemo ${m.version}, this process ${automemoVersion()}`,
          ),
        );
      w.ready = true;
      this.startFailures = 0;
      return this.dispatch();
    }
    if (m.type === 'note') return this.note(m.message);
    const p = w.jobs.get(m.id);
    if (!p) return;
    if (m.type === 'progress') {
      const event = parseProgress(m.event);
      return event && p.hints.onProgress?.(event);
    }
    w.jobs.delete(m.id);
    if (m.type === 'done') {
      try {
        p.resolve(parseJobOutput(m.output, `local worker pid ${w.child.pid}`, p.job));
      } catch (err) {
        p.reject(err);
      }
    } else
      p.reject(
        m.refused
          ? new ToolchainError('workers', m.message)
          : m.environment === true
            ? new EnvironmentFailure(m.message)
            : new Error(m.message),
      );
    this.dispatch();
  }

  private readonly noted = new Set<string>();

  /** A worker's note, once: every worker opens the same environment and says the same (but for its pid). */
  private note(message: unknown): void {
    if (typeof message !== 'string' || !this.onNote) return;
    const text = message.slice(0, 4000);
    const key = text.replace(/^\S+ pid \d+:? /, '');
    if (this.noted.has(key) || this.noted.size >= 1000) return;
    this.noted.add(key);
    this.onNote(text);
  }

  private onExit(w: Worker, why: string): void {
    this.workers.delete(w);
    if (this.closing) return;
    if (!w.ready && w.jobs.size === 0) {
      this.startFailures++;
      if (this.startFailures >= MAX_START_FAILURES) {
        return this.fail(
          new ToolchainError(
            'workers',
            `local worker processes exit before they start (${why}): ${w.stderr.trim().split('\n').slice(-5).join(' | ') || 'no message'}`,
          ),
        );
      }
    }
    const company = w.jobs.size > 1;
    for (const p of w.jobs.values()) {
      // The lines the dead worker wrote stay, aside: the job runs again on a clean folder, its lines never doubled.
      if (p.hints.evidenceDir) setAsideEvidence(p.hints.evidenceDir, 'retried');
      // Which of several killed the worker is not known: each runs again alone, its next death its own.
      if (company) {
        p.solo = true;
        this.queue.unshift(p);
        continue;
      }
      p.deaths.push(why);
      if (p.deaths.length >= MAX_DEATHS) {
        p.resolve({
          key: p.job.key,
          worker: `local worker pid ${w.child.pid}`,
          programFailure: `the ${p.job.kind === 'evaluate' ? 'evaluation' : 'quick examination'} killed its worker process ${p.deaths.length} times (${p.deaths.join('; ')})`,
        });
      } else this.queue.unshift(p);
    }
    this.spawnWorker();
  }

  private dispatch(): void {
    for (const w of this.workers) {
      while (w.ready && w.jobs.size < this.perWorker && this.queue.length > 0) {
        const first = this.queue[0] as Pending;
        if ([...w.jobs.values()].some((j) => j.solo) || (first.solo && w.jobs.size > 0)) break;
        this.send(w, this.queue.shift() as Pending);
      }
    }
  }

  private send(w: Worker, p: Pending): void {
    w.jobs.set(p.id, p);
    const message: ToWorker = {
      type: 'job',
      id: p.id,
      job: p.job,
      ...(p.hints.evidenceDir ? { evidenceDir: p.hints.evidenceDir } : {}),
    };
    w.child.send(message, (err) => {
      // The worker went away before it got the job: its exit puts the job back.
      if (err) w.child.kill('SIGKILL');
    });
    if (w.child.pid !== undefined) this.onDispatch?.(w.child.pid, p.job.key);
  }

  /** Stops waiting for a job: out of the queue, or its worker killed (a fresh one takes its place). */
  private abandon(p: Pending, reason: unknown): void {
    const queued = this.queue.indexOf(p);
    if (queued >= 0) this.queue.splice(queued, 1);
    for (const w of this.workers) {
      if (!w.jobs.delete(p.id)) continue;
      // Its other jobs go back to the queue: they did not kill it.
      for (const other of w.jobs.values()) this.queue.unshift(other);
      w.jobs.clear();
      w.child.kill('SIGKILL');
    }
    p.reject(reason);
  }

  private fail(err: Error): void {
    this.broken = err;
    for (const p of this.queue.splice(0)) p.reject(err);
    for (const w of this.workers) for (const p of w.jobs.values()) p.reject(err);
    this.closing = true;
    for (const w of this.workers) w.child.kill('SIGKILL');
  }
}
