// The type check under a time and memory limit. TypeScript's checker has none of its own: a 2 KB program of
// recursive type aliases kept it busy 131 s and took 4.15 GB of the host's memory, on the thread of `check`, of a
// search and of a queue worker. So checks run on a thread of their own (typecheck-worker.mjs) with a heap cap
// (resourceLimits), ended when a check outlasts its time; the thread lives on between checks, so the parsed lib and
// contract files stay warm, and a new one starts after a limit ended it. A program that goes over a limit gets one
// diagnostic saying which, and fails its examination with it; a thread that fails otherwise is a ToolchainError.
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { displayPath, resolveEntry } from './compile.ts';
import type { TypeDiagnostic } from './typecheck.ts';
import { ToolchainError } from './toolchain-error.ts';

export interface TypecheckLimits {
  /** Wall-clock time one check may take, from when the thread has it (its own start is not counted). */
  ms: number;
  /** The checker thread's heap (old generation). */
  heapMb: number;
}

/** Far above a real program's check (tens of milliseconds warm, seconds cold on a loaded machine). */
export const DEFAULT_TYPECHECK_LIMITS: TypecheckLimits = { ms: 60_000, heapMb: 1024 };
/** The bounds a caller's limits must keep (below them a real program cannot be checked; above, they bound nothing). */
const BOUNDS = { ms: [100, 3_600_000], heapMb: [64, 16_384] } as const;

/** `asked` over the defaults, each checked against its bounds; an error naming the first that is out of them. */
export function typecheckLimitsOf(asked: Partial<TypecheckLimits> = {}): TypecheckLimits {
  const limits = { ...DEFAULT_TYPECHECK_LIMITS, ...asked };
  for (const k of ['ms', 'heapMb'] as const) {
    const [lo, hi] = BOUNDS[k];
    if (!Number.isFinite(limits[k]) || limits[k] < lo || limits[k] > hi)
      throw new Error(`the type check's ${k} must be from ${lo} to ${hi}; got ${String(limits[k])}`);
  }
  return limits;
}

/** Starting the thread (loading tsx and TypeScript) is not the program's: past this, it is infrastructure. */
const START_MS = 120_000;

export interface TypecheckResult {
  diagnostics: TypeDiagnostic[];
  ms: number;
}

interface Reply {
  id?: number;
  ready?: boolean;
  diagnostics?: TypeDiagnostic[];
  ms?: number;
  broken?: string;
}

class CheckerThread {
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private pending: { id: number; settle: (r: Reply | Error) => void } | undefined;
  private ended: Error | undefined;
  private nextId = 1;

  constructor(readonly heapMb: number) {
    this.worker = new Worker(new URL('./typecheck-worker.mjs', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new ToolchainError('typescript', `the type checker's thread did not start within ${START_MS / 1000} s`),
          ),
        START_MS,
      );
      this.worker.on('message', (m: Reply) => {
        if (m.ready) {
          clearTimeout(timer);
          resolve();
          return;
        }
        if (this.pending && m.id === this.pending.id) this.pending.settle(m);
      });
      const end = (err: Error) => {
        clearTimeout(timer);
        this.ended ??= err;
        reject(err);
        this.pending?.settle(err);
      };
      this.worker.on('error', (err: Error & { code?: string }) =>
        end(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new OverLimit('memory') : err),
      );
      this.worker.on('exit', (code) => end(new Error(`the type checker's thread exited (code ${code})`)));
    });
    // The thread never keeps the process alive when no check waits on it.
    this.ready.catch(() => undefined);
    this.worker.unref();
  }

  get alive(): boolean {
    return this.ended === undefined;
  }

  /** One check, ended at `ms`: the thread is then stopped (a new one serves the next check). */
  async check(entryPath: string, code: string | undefined, ms: number): Promise<Reply> {
    this.worker.ref();
    try {
      await this.ready;
      const id = this.nextId++;
      return await new Promise<Reply>((resolve, reject) => {
        const timer = setTimeout(() => {
          this.ended ??= new OverLimit('time');
          reject(this.ended);
          void this.worker.terminate();
        }, ms);
        this.pending = {
          id,
          settle: (r) => {
            clearTimeout(timer);
            this.pending = undefined;
            if (r instanceof Error) reject(r);
            else resolve(r);
          },
        };
        if (this.ended) return this.pending.settle(this.ended);
        this.worker.postMessage({ id, entryPath, code });
      });
    } finally {
      this.worker.unref();
    }
  }

  stop(): Promise<number> {
    this.ended ??= new Error('stopped');
    return this.worker.terminate();
  }
}

class OverLimit extends Error {
  constructor(readonly what: 'time' | 'memory') {
    super(`over its ${what} limit`);
  }
}

/** What a program that outgrew a limit gets instead of its diagnostics. */
function overLimit(entryPath: string, what: 'time' | 'memory', limits: TypecheckLimits, ms: number): TypecheckResult {
  const entry = resolveEntry(entryPath);
  const limit = what === 'time' ? `${limits.ms / 1000} s` : `${limits.heapMb} MB of memory`;
  const message = `the type check of this program went over its limit of ${limit} and was stopped: its types are too costly to check (deeply recursive or exploding type aliases, huge unions); simplify them`;
  return { diagnostics: [{ file: displayPath(entry, dirname(entry)), line: 1, column: 1, code: 0, message }], ms };
}

/** Runs checks one at a time on one thread, with a new thread after one ended (by a limit, or a crash). */
export class LimitedTypeChecker {
  private thread: CheckerThread | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  check(
    entryPath: string,
    code: string | undefined,
    limits: TypecheckLimits = DEFAULT_TYPECHECK_LIMITS,
  ): Promise<TypecheckResult> {
    const run = this.queue.then(() => this.checkNow(entryPath, code, limits));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async checkNow(
    entryPath: string,
    code: string | undefined,
    limits: TypecheckLimits,
  ): Promise<TypecheckResult> {
    const started = performance.now();
    for (let attempt = 1; ; attempt++) {
      if (!this.thread?.alive || this.thread.heapMb !== limits.heapMb) {
        void this.thread?.stop();
        this.thread = new CheckerThread(limits.heapMb);
      }
      try {
        const reply = await this.thread.check(entryPath, code, limits.ms);
        if (reply.broken !== undefined) throw new ToolchainError('typescript', reply.broken);
        return { diagnostics: reply.diagnostics ?? [], ms: performance.now() - started };
      } catch (err) {
        if (err instanceof OverLimit) return overLimit(entryPath, err.what, limits, performance.now() - started);
        if (err instanceof ToolchainError) throw err;
        // A thread that died otherwise: once more on a new one, then infrastructure.
        if (attempt >= 2)
          throw new ToolchainError('typescript', `the type checker's thread failed twice: ${(err as Error).message}`, {
            cause: err,
          });
      }
    }
  }

  /** Stops the thread (a new one starts on the next check). */
  async close(): Promise<void> {
    await this.thread?.stop();
    this.thread = undefined;
  }
}

let shared: LimitedTypeChecker | undefined;
/** The process-wide checker: its thread's caches are what make checks fast. */
export function limitedTypeChecker(): LimitedTypeChecker {
  shared ??= new LimitedTypeChecker();
  return shared;
}
