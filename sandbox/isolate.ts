// The sandbox boundary: one V8 isolate (isolated-vm) per program instance, with a heap cap, a CPU budget and a
// wall-clock budget per call, and no reach beyond the MemoContext primitives. Whatever the program does — loops,
// heap bombs, promises that never settle, hostile payloads — a call ends in a structured result, never in a
// host crash. A CPU or wall-clock overrun disposes the isolate: the instance is then dead and says why.
//
// Protocol: the host only ever enters the isolate with synchronous calls on its own thread (start an operation,
// deliver a slow primitive's reply), each under the time left of the operation's CPU budget; isolated-vm stops
// any entry that overruns, including code that runs after an await. Primitives answer synchronously when they
// can, so a retrieve that reads kv or searches vectors never waits on a thread hop.
import ivm from 'isolated-vm';
import type { EpisodeRecorder, Json, PartialRecorder } from '../memo-programs/contract.ts';
import { BUNDLE_FILENAME, type CompiledProgram } from './compile.ts';
import { DEFAULT_ARG_LIMITS } from './primitives/arg-bounds.ts';
import { PLAIN_STUBS } from './primitives/catalog.ts';
import type { InstancePrimitives } from './primitives/index.ts';
import { DEFAULT_BUDGET, type PayloadBudget, type WirePayload } from './payload.ts';
import { preludeScript } from './runtime/prelude-script.ts';
import { mapStack } from './source-map.ts';

export interface SandboxLimits {
  /** Isolate heap cap in MB. */
  heapMb: number;
  /** Time one call may spend executing in the isolate (synchronous host primitives included, slow ones not). */
  callCpuMs: number;
  /** Wall-clock time one call may take, host primitives included. */
  callWallMs: number;
  /** Time the program's top-level code may take to load. */
  loadMs: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { heapMb: 256, callCpuMs: 10_000, callWallMs: 60_000, loadMs: 5_000 };

export type SandboxErrorKind =
  | 'load'
  | 'interface'
  | 'threw'
  | 'cpu-timeout'
  | 'wall-timeout'
  /** Shared machinery (the embedding workers) kept the call waiting past its budget: not the program's fault. */
  | 'infra'
  | 'heap'
  | 'payload'
  | 'disposed';

export interface SandboxError {
  kind: SandboxErrorKind;
  op: string;
  message: string;
  /** Where in the program's TypeScript, e.g. "index.ts:12:7". */
  location?: string;
  stack?: string;
}

export type CallResult<T> = ({ ok: true; value: T } | { ok: false; error: SandboxError }) & {
  ms: number;
  cpuMs: number;
};

export interface StartOptions {
  limits?: Partial<SandboxLimits>;
  /** Seed of Math.random and ctx.random. */
  seed?: number;
  /** Virtual clock start (ms since epoch). */
  clockStart?: number;
  /** Payload text beyond this is cut inside the isolate before it crosses (the real length still reaches the host). */
  textCap?: number;
  /** Largest images + metadata JSON a payload may carry, in characters. */
  jsonCap?: number;
  /** The payload budget programs see as ctx.budget. */
  budget?: PayloadBudget;
}

export type Methods = Record<'init' | 'update' | 'retrieve' | 'snapshot' | 'restore', string>;

/**
 * One watchdog for all instances instead of a timer per call (a per-call timer costs more than a fast call):
 * while any operation is running it checks deadlines every 25 ms.
 */
const running = new Set<ProgramInstance>();
let watchdog: NodeJS.Timeout | undefined;
function armWatchdog(): void {
  if (watchdog) return;
  watchdog = setInterval(() => {
    const now = performance.now();
    for (const inst of [...running]) inst.checkDeadline(now);
    if (running.size === 0) {
      clearInterval(watchdog);
      watchdog = undefined;
    }
  }, 25);
}

/** V8 code caches by program hash, so a program loads fast the second time. */
const codeCache = new Map<string, ivm.ExternalCopy<ArrayBuffer>>();

type Reply =
  | { ok: true; value: unknown; logsDropped?: number }
  | { ok: false; error: { name: string; message: string; stack?: string }; logsDropped?: number };

/** The operation in flight: its reply handler and what is left of its CPU budget. */
interface Operation {
  id: number;
  op: string;
  budgetMs: number;
  /** performance.now() by which the operation must have settled. */
  deadline: number;
  settle: (r: { reply: Reply } | { failure: SandboxError }) => void;
}

export class ProgramInstance {
  private queue: Promise<unknown> = Promise.resolve();
  private deathReason: SandboxError | undefined;
  private current: Operation | undefined;
  /** Calls started or queued and not yet settled. */
  private pending = 0;
  private nextId = 1;
  private entry!: ivm.Reference<(id: number, op: string, arg?: string) => void>;
  private resolver!: ivm.Reference<(ticket: number, reply: unknown) => void>;

  private constructor(
    private readonly isolate: ivm.Isolate,
    private readonly context: ivm.Context,
    readonly program: CompiledProgram,
    readonly primitives: InstancePrimitives,
    readonly limits: SandboxLimits,
    readonly methods: Methods,
    /** Isolate creation plus program load, in ms. */
    public loadMs: number,
  ) {}

  /** Creates the isolate, installs the context, loads the program and checks its default export. */
  static async start(
    program: CompiledProgram,
    primitives: InstancePrimitives,
    options: StartOptions = {},
  ): Promise<{ ok: true; instance: ProgramInstance } | { ok: false; error: SandboxError; ms: number }> {
    const started = performance.now();
    const limits = { ...DEFAULT_LIMITS, ...options.limits };
    const isolate = new ivm.Isolate({ memoryLimit: limits.heapMb });
    const fail = (error: SandboxError) => {
      if (!isolate.isDisposed) isolate.dispose();
      return { ok: false as const, error, ms: performance.now() - started };
    };
    try {
      const context = await isolate.createContext();
      const jail = context.global;
      const instance = new ProgramInstance(isolate, context, program, primitives, limits, {} as Methods, 0);
      jail.setSync('__automemo_host', new ivm.Callback((name: string, args: unknown) => instance.hostCall(name, args)));
      jail.setSync('__automemo_done', new ivm.Callback((id: number, reply: Reply) => instance.onDone(id, reply)));
      await jail.set(
        '__automemo_config',
        new ivm.ExternalCopy({
          seed: options.seed ?? 1,
          clockStart: options.clockStart ?? Date.UTC(2024, 0, 1),
          textCap: options.textCap ?? Math.max(1_000_000, 2 * (options.budget ?? DEFAULT_BUDGET).maxChars),
          jsonCap: options.jsonCap ?? 2_000_000,
          logCharsPerCall: 4000,
          logChars: primitives.logCharsQuota,
          maxInFlight: 64,
          embedCharsInFlight: primitives.embedCharsInFlightQuota,
          argLimits: DEFAULT_ARG_LIMITS,
          budget: options.budget ?? DEFAULT_BUDGET,
          plain: PLAIN_STUBS,
        }).copyInto(),
      );
      context.evalSync(preludeScript(), { timeout: 2000 });
      instance.entry = jail.getSync('__automemo_entry', { reference: true });
      instance.resolver = jail.getSync('__automemo_resolve', { reference: true });
      context.evalSync('delete globalThis.__automemo_entry; delete globalThis.__automemo_resolve;');

      const cached = codeCache.get(program.hash);
      const script = await isolate.compileScript(program.code, {
        filename: BUNDLE_FILENAME,
        ...(cached ? { cachedData: cached } : { produceCachedData: true }),
      });
      const produced = (script as ivm.Script & ivm.CachedDataResult).cachedData;
      if (!cached && produced) codeCache.set(program.hash, produced);

      try {
        script.runSync(context, { timeout: limits.loadMs });
      } catch (err) {
        const message = (err as Error).message ?? String(err);
        if (/timed out/i.test(message)) {
          return fail({
            kind: 'load',
            op: 'load',
            message: `the program's top-level code ran longer than ${limits.loadMs} ms`,
          });
        }
        if (/memory limit/i.test(message)) {
          return fail({
            kind: 'heap',
            op: 'load',
            message: `the program exceeded its ${limits.heapMb} MB heap cap while loading`,
          });
        }
        const mapped = mapStack((err as Error).stack ?? message, program);
        return fail({
          kind: 'load',
          op: 'load',
          message: `the program threw while loading: ${message}`,
          stack: mapped.stack,
          ...(mapped.location ? { location: mapped.location } : {}),
        });
      }

      const loaded = await instance.call<Methods>('load');
      if (!loaded.ok)
        return fail({ ...loaded.error, kind: loaded.error.kind === 'threw' ? 'load' : loaded.error.kind });
      const methods = loaded.value;
      const missing = (['update', 'retrieve'] as const).filter((m) => methods[m] !== 'function');
      if (missing.length) {
        return fail({
          kind: 'interface',
          op: 'load',
          message: `the default export has no ${missing.map((m) => `${m}()`).join(' or ')} method (found: ${
            Object.entries(methods)
              .filter(([, t]) => t !== 'undefined')
              .map(([k, t]) => `${k}: ${t}`)
              .join(', ') || 'nothing'
          })`,
        });
      }
      Object.assign(instance.methods, methods);
      instance.loadMs = performance.now() - started;
      return { ok: true, instance };
    } catch (err) {
      const message = (err as Error).message ?? String(err);
      if (/memory limit/i.test(message)) {
        return fail({
          kind: 'heap',
          op: 'load',
          message: `the program exceeded its ${limits.heapMb} MB heap cap while loading`,
        });
      }
      return fail({ kind: 'load', op: 'load', message: `could not start the sandbox: ${message}` });
    }
  }

  get alive(): boolean {
    return !this.isolate.isDisposed;
  }

  /** Why the instance died, if it did. */
  get death(): SandboxError | undefined {
    return this.deathReason;
  }

  async init(): Promise<CallResult<null>> {
    if (this.methods.init !== 'function') return { ok: true, value: null, ms: 0, cpuMs: 0 };
    return this.call('init');
  }

  update(episode: EpisodeRecorder): Promise<CallResult<null>> {
    return this.call('update', JSON.stringify(episode));
  }

  retrieve(task: PartialRecorder): Promise<CallResult<WirePayload>> {
    return this.call('retrieve', JSON.stringify(task));
  }

  async snapshot(): Promise<CallResult<Json | undefined>> {
    if (this.methods.snapshot !== 'function') return { ok: true, value: undefined, ms: 0, cpuMs: 0 };
    const r = await this.call<string>('snapshot');
    return r.ok ? { ...r, value: JSON.parse(r.value) as Json } : r;
  }

  async restore(state: Json): Promise<CallResult<null>> {
    if (this.methods.restore !== 'function') {
      return {
        ok: false,
        error: { kind: 'interface', op: 'restore', message: 'the program has no restore() method' },
        ms: 0,
        cpuMs: 0,
      };
    }
    return this.call('restore', JSON.stringify(state));
  }

  /** Sets the virtual clock (ms since epoch), e.g. to an episode's date. */
  setClock(ms: number): Promise<CallResult<null>> {
    return this.call('setClock', JSON.stringify(ms));
  }

  async heapUsedBytes(): Promise<number | undefined> {
    if (this.isolate.isDisposed) return undefined;
    const s = await this.isolate.getHeapStatistics();
    return s.used_heap_size + (s.externally_allocated_size ?? 0);
  }

  /** Calls run one at a time, in order. */
  call<T>(op: string, arg?: string): Promise<CallResult<T>> {
    // Start at once when idle; otherwise after the calls before this one (callNow never rejects).
    const next = this.pending === 0 ? this.callNow<T>(op, arg) : this.queue.then(() => this.callNow<T>(op, arg));
    this.pending++;
    this.queue = next;
    return next;
  }

  private callNow<T>(op: string, arg: string | undefined): Promise<CallResult<T>> {
    const started = performance.now();
    if (this.isolate.isDisposed) {
      const why = this.deathReason ? ` (${this.deathReason.message})` : '';
      return Promise.resolve({
        ok: false,
        error: { kind: 'disposed', op, message: `the sandbox is no longer running${why}` },
        ms: 0,
        cpuMs: 0,
      });
    }
    const cpu0 = this.isolate.cpuTime;
    const cpuMs = () => (this.isolate.isDisposed ? this.limits.callCpuMs : Number(this.isolate.cpuTime - cpu0) / 1e6);
    return new Promise<CallResult<T>>((resolve) => {
      this.current = {
        id: this.nextId++,
        op,
        budgetMs: this.limits.callCpuMs,
        deadline: started + this.limits.callWallMs,
        settle: (r) => {
          this.current = undefined;
          this.pending--;
          running.delete(this);
          const ms = performance.now() - started;
          if ('failure' in r) return resolve({ ok: false, error: r.failure, ms, cpuMs: cpuMs() });
          this.primitives.noteDroppedLogs(r.reply.logsDropped ?? 0);
          if (r.reply.ok) return resolve({ ok: true, value: r.reply.value as T, ms, cpuMs: cpuMs() });
          resolve({ ok: false, error: this.describe(op, r.reply.error), ms, cpuMs: cpuMs() });
        },
      };
      const id = this.current.id;
      running.add(this);
      armWatchdog();
      this.enter((timeout) =>
        this.entry.applySync(undefined, arg === undefined ? [id, op] : [id, op, arg], {
          arguments: { copy: true },
          timeout,
        }),
      );
    });
  }

  /**
   * Runs one synchronous entry into the isolate for the current operation, charging its time to the
   * operation's budget. Overruns, heap exhaustion and boundary errors end the operation and the sandbox.
   */
  private enter(fn: (timeout: number) => unknown): void {
    const op = this.current;
    if (!op || this.isolate.isDisposed) return;
    const t0 = performance.now();
    try {
      fn(Math.max(1, Math.ceil(op.budgetMs)));
    } catch (err) {
      const message = (err as Error)?.message ?? String(err);
      if (/timed out/i.test(message)) {
        this.fail(
          {
            kind: 'cpu-timeout',
            op: op.op,
            message: `${op.op}() used more than ${this.limits.callCpuMs} ms of CPU; the sandbox was stopped`,
          },
          true,
        );
      } else if (/memory limit/i.test(message)) {
        this.fail(
          {
            kind: 'heap',
            op: op.op,
            message: `${op.op}() exceeded the ${this.limits.heapMb} MB heap cap; the sandbox was stopped`,
          },
          true,
        );
      } else {
        this.fail({ kind: 'threw', op: op.op, message: `${op.op}() failed at the boundary: ${message}` }, true);
      }
      return;
    } finally {
      if (this.current === op) {
        op.budgetMs -= performance.now() - t0;
        // isolated-vm cannot interrupt the host while it answers a call, so host work done on the program's behalf
        // is charged here: an entry that ends past the budget stops the sandbox as a CPU overrun would.
        if (op.budgetMs <= 0) {
          this.fail(
            {
              kind: 'cpu-timeout',
              op: op.op,
              message: `${op.op}() used more than ${this.limits.callCpuMs} ms of CPU (host work on its behalf included); the sandbox was stopped`,
            },
            true,
          );
        }
      }
    }
  }

  /** Ends the current operation with a failure; `fatal` also stops the sandbox. */
  private fail(error: SandboxError, fatal: boolean): void {
    if (fatal) {
      this.deathReason ??= error;
      if (!this.isolate.isDisposed) this.isolate.dispose();
    }
    this.current?.settle({ failure: error });
  }

  /** The isolate's only way out: a synchronous envelope, or a ticket answered later through the resolver. */
  private hostCall(name: string, args: unknown): unknown {
    const answer = this.primitives.answer(name, args);
    if (!(answer instanceof Promise)) return answer;
    const ticket = this.nextId++;
    void answer.then((envelope) => {
      if (this.isolate.isDisposed || !this.current) return;
      this.enter((timeout) =>
        this.resolver.applySync(undefined, [ticket, envelope], { arguments: { copy: true }, timeout }),
      );
    });
    return { pending: ticket };
  }

  /**
   * Called by the watchdog: ends an operation that outlived its wall-clock budget. Time the call spent waiting
   * behind other programs' work or a restarting worker is not the program's: its clock stops meanwhile, up to one
   * more budget; if the wait goes on past that while the program's own share is under budget, the machinery
   * failed ('infra', retried by evaluation), not the program.
   */
  checkDeadline(now: number): void {
    const op = this.current;
    if (!op || now < op.deadline) return;
    const started = op.deadline - this.limits.callWallMs;
    const foreign = this.primitives.sharedWaitMs(started, now);
    if (now < op.deadline + Math.min(foreign, this.limits.callWallMs)) return;
    if (now - started - foreign < this.limits.callWallMs) {
      this.fail(
        {
          kind: 'infra',
          op: op.op,
          message: `${op.op}() waited ${Math.round(foreign)} ms of its ${Math.round(now - started)} ms on shared embedding workers busy with other programs' work or restarting; the sandbox was stopped and the call counts as an infrastructure failure, not the program's`,
        },
        true,
      );
      return;
    }
    this.fail(
      {
        kind: 'wall-timeout',
        op: op.op,
        message: `${op.op}() did not finish within ${this.limits.callWallMs} ms (a promise that never settles, or a host call that never returned); the sandbox was stopped`,
      },
      true,
    );
  }

  private onDone(id: number, reply: Reply): void {
    if (this.current?.id === id) this.current.settle({ reply });
  }

  private describe(op: string, e: { name: string; message: string; stack?: string }): SandboxError {
    const kind: SandboxErrorKind =
      e.name === 'PayloadError' ? 'payload' : e.name === 'InterfaceError' ? 'interface' : 'threw';
    if (kind !== 'threw') return { kind, op, message: e.message };
    const mapped = e.stack ? mapStack(e.stack, this.program) : undefined;
    const label = e.name === 'NonError' ? `${op}() ${e.message}` : `${op}() threw ${e.name}: ${e.message}`;
    const error: SandboxError = { kind, op, message: mapped?.location ? `${label} (at ${mapped.location})` : label };
    if (mapped?.location) error.location = mapped.location;
    if (mapped) error.stack = mapped.stack;
    return error;
  }

  /** Ends the isolate. Host state (kv, vectors) stays with `primitives` until its owner disposes it. */
  dispose(): void {
    if (!this.isolate.isDisposed) this.isolate.dispose();
    this.entry?.release();
    this.resolver?.release();
    this.context.release();
  }
}
