// The sandbox boundary: one V8 isolate (isolated-vm) per program instance, with a heap cap, a CPU budget and a
// wall-clock budget per call, and no reach beyond the MemoContext primitives. Whatever the program does — loops,
// heap bombs, promises that never settle, hostile payloads — a call ends in a structured result, never in a
// host crash. A CPU or wall-clock overrun disposes the isolate: the instance is then dead and says why.
import { readFileSync } from 'node:fs';
import * as esbuild from 'esbuild';
import ivm from 'isolated-vm';
import type { EpisodeRecorder, Json, PartialRecorder } from '../memo-programs/contract.ts';
import { BUNDLE_FILENAME, type CompiledProgram } from './compile.ts';
import type { InstancePrimitives } from './primitives/index.ts';
import { DEFAULT_BUDGET, type PayloadBudget, type WirePayload } from './payload.ts';
import { mapStack } from './source-map.ts';

export interface SandboxLimits {
  /** Isolate heap cap in MB. */
  heapMb: number;
  /** CPU time one call may use inside the isolate (host primitives are not counted). */
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

let preludeScript: string | undefined;
function prelude(): string {
  // Bundled from TypeScript on first use; wrapped in an IIFE so none of its bindings are visible to programs.
  preludeScript ??= esbuild.transformSync(readFileSync(new URL('./runtime/prelude.ts', import.meta.url), 'utf8'), {
    loader: 'ts',
    format: 'iife',
    target: 'es2022',
  }).code;
  return preludeScript;
}

/** V8 code caches by program hash, so a program loads fast the second time. */
const codeCache = new Map<string, ivm.ExternalCopy<ArrayBuffer>>();

export class ProgramInstance {
  private queue: Promise<unknown> = Promise.resolve();
  private deathReason: SandboxError | undefined;

  private constructor(
    private readonly isolate: ivm.Isolate,
    private readonly context: ivm.Context,
    private readonly entry: ivm.Reference<(op: string, arg?: string) => Promise<unknown>>,
    readonly program: CompiledProgram,
    readonly primitives: InstancePrimitives,
    readonly limits: SandboxLimits,
    readonly methods: Methods,
    readonly loadMs: number,
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
      await jail.set(
        '__automemo_host',
        new ivm.Reference((name: string, args: unknown) => primitives.dispatch(name, args)),
      );
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
          budget: options.budget ?? DEFAULT_BUDGET,
        }).copyInto(),
      );
      await context.eval(prelude(), { timeout: 2000 });
      const entry = await jail.get('__automemo_entry', { reference: true });
      await context.eval('delete globalThis.__automemo_entry');

      const cached = codeCache.get(program.hash);
      const script = await isolate.compileScript(program.code, {
        filename: BUNDLE_FILENAME,
        ...(cached ? { cachedData: cached } : { produceCachedData: true }),
      });
      const produced = (script as ivm.Script & ivm.CachedDataResult).cachedData;
      if (!cached && produced) codeCache.set(program.hash, produced);

      let wallTimedOut = false;
      const wall = setTimeout(() => {
        wallTimedOut = true;
        if (!isolate.isDisposed) isolate.dispose();
      }, limits.loadMs);
      try {
        await script.run(context, { timeout: limits.loadMs });
      } catch (err) {
        const message = (err as Error).message ?? String(err);
        if (wallTimedOut || /timed out/i.test(message)) {
          return fail({ kind: 'load', op: 'load', message: `the program's top-level code ran longer than ${limits.loadMs} ms` });
        }
        if (/memory limit/i.test(message)) {
          return fail({ kind: 'heap', op: 'load', message: `the program exceeded its ${limits.heapMb} MB heap cap while loading` });
        }
        const mapped = mapStack((err as Error).stack ?? message, program);
        return fail({
          kind: 'load',
          op: 'load',
          message: `the program threw while loading: ${message}`,
          stack: mapped.stack,
          ...(mapped.location ? { location: mapped.location } : {}),
        });
      } finally {
        clearTimeout(wall);
      }

      const instance = new ProgramInstance(
        isolate,
        context,
        entry,
        program,
        primitives,
        limits,
        {} as Methods,
        performance.now() - started,
      );
      const loaded = await instance.call<Methods>('load');
      if (!loaded.ok) return fail({ ...loaded.error, kind: loaded.error.kind === 'threw' ? 'load' : loaded.error.kind });
      const methods = loaded.value;
      const missing = (['update', 'retrieve'] as const).filter((m) => methods[m] !== 'function');
      if (missing.length) {
        return fail({
          kind: 'interface',
          op: 'load',
          message: `the default export has no ${missing.map((m) => `${m}()`).join(' or ')} method (found: ${Object.entries(methods)
            .filter(([, t]) => t !== 'undefined')
            .map(([k, t]) => `${k}: ${t}`)
            .join(', ') || 'nothing'})`,
        });
      }
      Object.assign(instance.methods, methods);
      (instance as { loadMs: number }).loadMs = performance.now() - started;
      return { ok: true, instance };
    } catch (err) {
      const message = (err as Error).message ?? String(err);
      if (/memory limit/i.test(message)) {
        return fail({ kind: 'heap', op: 'load', message: `the program exceeded its ${limits.heapMb} MB heap cap while loading` });
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
      return { ok: false, error: { kind: 'interface', op: 'restore', message: 'the program has no restore() method' }, ms: 0, cpuMs: 0 };
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
    const next = this.queue.then(() => this.callNow<T>(op, arg));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async callNow<T>(op: string, arg: string | undefined): Promise<CallResult<T>> {
    const started = performance.now();
    if (this.isolate.isDisposed) {
      const why = this.deathReason ? ` (${this.deathReason.message})` : '';
      return { ok: false, error: { kind: 'disposed', op, message: `the sandbox is no longer running${why}` }, ms: 0, cpuMs: 0 };
    }
    const cpu0 = this.isolate.cpuTime;
    const cpuLimit = BigInt(this.limits.callCpuMs) * 1_000_000n;
    let overrun: 'cpu' | 'wall' | undefined;
    const kill = (why: 'cpu' | 'wall') => {
      overrun ??= why;
      if (!this.isolate.isDisposed) this.isolate.dispose();
    };
    // isolated-vm's own timeout does not cover code that runs after an await; a watchdog on cpuTime does.
    const watchdog = setInterval(() => {
      if (!this.isolate.isDisposed && this.isolate.cpuTime - cpu0 > cpuLimit) kill('cpu');
    }, 10);
    const wall = setTimeout(() => kill('wall'), this.limits.callWallMs);
    const cpuMs = () => (this.isolate.isDisposed ? this.limits.callCpuMs : Number(this.isolate.cpuTime - cpu0) / 1e6);
    try {
      const args: [string, string?] = arg === undefined ? [op] : [op, arg];
      const reply = (await this.entry.apply(undefined, args, {
        arguments: { copy: true },
        result: { promise: true, copy: true },
        timeout: this.limits.callCpuMs,
      })) as { ok: true; value: T } | { ok: false; error: { name: string; message: string; stack?: string } };
      const ms = performance.now() - started;
      this.primitives.noteDroppedLogs((reply as { logsDropped?: number }).logsDropped ?? 0);
      if (reply.ok) return { ok: true, value: reply.value, ms, cpuMs: cpuMs() };
      return { ok: false, error: this.describe(op, reply.error), ms, cpuMs: cpuMs() };
    } catch (err) {
      const message = (err as Error)?.message ?? String(err);
      let error: SandboxError;
      if (overrun === 'cpu' || (!overrun && /timed out/i.test(message))) {
        error = { kind: 'cpu-timeout', op, message: `${op}() used more than ${this.limits.callCpuMs} ms of CPU; the sandbox was stopped` };
      } else if (overrun === 'wall') {
        error = {
          kind: 'wall-timeout',
          op,
          message: `${op}() did not finish within ${this.limits.callWallMs} ms (a promise that never settles, or a slow loop); the sandbox was stopped`,
        };
      } else if (/memory limit/i.test(message)) {
        error = { kind: 'heap', op, message: `${op}() exceeded the ${this.limits.heapMb} MB heap cap; the sandbox was stopped` };
      } else if (/disposed/i.test(message)) {
        error = { kind: 'disposed', op, message: `the sandbox stopped during ${op}(): ${message}` };
      } else {
        error = { kind: 'threw', op, message: `${op}() failed at the boundary: ${message}` };
      }
      if (!this.isolate.isDisposed) this.isolate.dispose();
      this.deathReason ??= error;
      return { ok: false, error, ms: performance.now() - started, cpuMs: cpuMs() };
    } finally {
      clearInterval(watchdog);
      clearTimeout(wall);
    }
  }

  private describe(op: string, e: { name: string; message: string; stack?: string }): SandboxError {
    const kind: SandboxErrorKind = e.name === 'PayloadError' ? 'payload' : e.name === 'InterfaceError' ? 'interface' : 'threw';
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
    this.entry.release();
    this.context.release();
  }
}
