// Quick examination (the paper's C.4): the six checks every candidate passes before a full evaluation —
// imports, interface, update on sample episodes, retrieve on sample tasks, payload schema, payload budget.
// Each failed check names what happened and where, in words a person (or the repair prompt) can act on.
import type { EpisodeRecorder, PartialRecorder } from '../memo-programs/contract.ts';
import { type CompiledProgram, compileProgram, formatIssue, type ProgramSource, resolveEntry } from './compile.ts';
import { type SandboxError, type SandboxLimits, ProgramInstance } from './isolate.ts';
import { checkPayload, DEFAULT_BUDGET, type PayloadBudget, payloadDigest } from './payload.ts';
import { type HostServices, type InstanceUsage, InstancePrimitives } from './primitives/index.ts';
import type { Quotas } from './primitives/quotas.ts';
import { ToolchainError } from './toolchain-error.ts';
import { builtinSamples, type Samples } from './samples.ts';
import { formatDiagnostic } from './typecheck.ts';
import { limitedTypeChecker, type TypecheckLimits } from './typecheck-thread.ts';
import { relative } from 'node:path';
import { CHECK_NAMES, type CheckName } from './check-names.ts';

export { CHECK_NAMES, type CheckName };

export interface Check {
  name: CheckName;
  ok: boolean;
  message: string;
  /** file:line:col in the program, when the failure has a place. */
  location?: string;
}

export interface PayloadSummary {
  taskId: string;
  textChars: number;
  images: number;
  preview: string;
  /** The payload as the agent gets it, as one digest (payload.ts's payloadDigest): equal digests, equal behaviour. */
  digest: string;
}

export interface QuickExamReport {
  program: string;
  hash?: string;
  passed: boolean;
  checks: Check[];
  usage: InstanceUsage | null;
  timings: { compileMs: number; typecheckMs: number; loadMs: number; updateMs: number; retrieveMs: number; totalMs: number };
  payloads: PayloadSummary[];
  modes: HostServices['modes'];
  /** The failing case in full, for a repair prompt. */
  failure?: { check: CheckName; case?: string; detail: string; stack?: string };
  /** Set when a check failed because shared machinery did (an 'infra' sandbox error), not the program. */
  infrastructure?: string;
}

export interface QuickExamOptions {
  services: HostServices;
  samples?: Samples;
  budget?: PayloadBudget;
  limits?: Partial<SandboxLimits>;
  quotas?: Partial<Quotas>;
  seed?: number;
  /** Type-check against the contract (default true). */
  typecheck?: boolean;
  /** The type check's time and memory (default DEFAULT_TYPECHECK_LIMITS); a program over them fails the interface check. */
  typecheckLimits?: TypecheckLimits;
}

const round = (ms: number) => Math.round(ms);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/**
 * Compiles, type-checks and exercises a program on sample episodes and tasks. A failure of shared machinery is
 * not the program's: the examination runs again once, and a second such failure is a ToolchainError.
 */
export async function quickExam(source: ProgramSource, options: QuickExamOptions): Promise<QuickExamReport> {
  const first = await examineOnce(source, options);
  if (!first.infrastructure) return first;
  const second = await examineOnce(source, options);
  if (!second.infrastructure) return second;
  throw new ToolchainError('embedding', `quick examination failed twice on shared machinery, not on the program: ${second.infrastructure}`);
}

/** One examination as its checks run: what each check found, the first failure, the timings and payloads. */
class Examination {
  private readonly started = performance.now();
  private readonly checks = new Map<CheckName, Check>();
  readonly timings = { compileMs: 0, typecheckMs: 0, loadMs: 0, updateMs: 0, retrieveMs: 0, totalMs: 0 };
  readonly payloads: PayloadSummary[] = [];
  private failure: QuickExamReport['failure'];
  /** Set when a check failed on shared machinery (an 'infra' sandbox error), not on the program. */
  infrastructure: string | undefined;
  primitives: InstancePrimitives | undefined;

  constructor(
    private readonly entry: string,
    private readonly modes: HostServices['modes'],
  ) {}

  /** A check's result; the first failed check is the failure unless a later one says more (`fail`). */
  set(c: Check): void {
    this.checks.set(c.name, c);
    if (!c.ok && !this.failure) this.failure = { check: c.name, detail: c.message };
  }

  /** A failed check, and the failing case in full for the repair prompt. */
  fail(c: Check, failure: NonNullable<QuickExamReport['failure']>): void {
    this.set(c);
    this.failure = failure;
  }

  report(hash?: string): QuickExamReport {
    for (const name of CHECK_NAMES) {
      if (!this.checks.has(name)) this.checks.set(name, { name, ok: false, message: 'not run: an earlier check failed' });
    }
    this.timings.totalMs = round(performance.now() - this.started);
    const list = CHECK_NAMES.map((n) => this.checks.get(n) as Check);
    const report: QuickExamReport = {
      program: relative(process.cwd(), this.entry) || this.entry,
      passed: list.every((c) => c.ok),
      checks: list,
      usage: this.primitives?.usage() ?? null,
      timings: this.timings,
      payloads: this.payloads,
      modes: this.modes,
    };
    if (hash) report.hash = hash;
    if (this.failure) report.failure = this.failure;
    if (this.infrastructure) report.infrastructure = this.infrastructure;
    return report;
  }
}

async function examineOnce(source: ProgramSource, options: QuickExamOptions): Promise<QuickExamReport> {
  const exam = new Examination(resolveEntry(source.entryPath), options.services.modes);
  const program = await checkImports(source, exam);
  if (!program) return exam.report();
  const instance = await checkInterface(source, program, options, exam);
  if (!instance) return exam.report(program.hash);
  try {
    const samples = options.samples ?? (await builtinSamples(options.services.images));
    if (await checkUpdates(instance, samples.episodes, exam)) {
      // Memory is frozen while retrieve runs, as in evaluation.
      exam.primitives?.freeze();
      await checkRetrieves(instance, samples.tasks, options, exam);
    }
    return exam.report(program.hash);
  } finally {
    instance.dispose();
    exam.primitives?.dispose();
  }
}

/** 1. imports: the program bundles, and imports only what the allow-list permits. */
async function checkImports(source: ProgramSource, exam: Examination): Promise<CompiledProgram | undefined> {
  const compiled = await compileProgram(source);
  exam.timings.compileMs = round(compiled.ok ? compiled.program.ms : compiled.ms);
  if (!compiled.ok) {
    const first = compiled.issues[0];
    exam.set({
      name: 'imports',
      ok: false,
      message: compiled.issues.map(formatIssue).join('\n'),
      ...(first?.file && first.line ? { location: `${first.file}:${first.line}:${first.column ?? 1}` } : {}),
    });
    return undefined;
  }
  const program = compiled.program;
  exam.set({
    name: 'imports',
    ok: true,
    message: `bundled ${program.files.length} program file${program.files.length === 1 ? '' : 's'} into ${kb(program.code.length)}`,
  });
  return program;
}

/**
 * 2. interface: types agree with the contract, and the loaded default export has update() and retrieve(). A type
 * error fails the check but the examination goes on (the program loaded); an instance that did not start ends it.
 */
async function checkInterface(source: ProgramSource, program: CompiledProgram, options: QuickExamOptions, exam: Examination): Promise<ProgramInstance | undefined> {
  const types = options.typecheck === false ? { issues: [] } : await typeIssues(source, program, exam, options.typecheckLimits);
  const primitives = new InstancePrimitives(options.services, options.quotas ? { quotas: options.quotas } : {});
  exam.primitives = primitives;
  const startOpts = { budget: options.budget ?? DEFAULT_BUDGET, ...(options.limits ? { limits: options.limits } : {}), ...(options.seed !== undefined ? { seed: options.seed } : {}) };
  const started = await ProgramInstance.start(program, primitives, startOpts);
  if (!started.ok) {
    exam.timings.loadMs = round(started.ms);
    const err = started.error;
    const check: Check = { name: 'interface', ok: false, message: [err.message, ...types.issues.map((t) => `type error ${t}`)].join('\n'), ...locationOf(err, types.location) };
    if (err.stack) exam.fail(check, { check: 'interface', detail: err.message, stack: err.stack });
    else exam.set(check);
    primitives.dispose();
    return undefined;
  }
  const instance = started.instance;
  exam.timings.loadMs = round(instance.loadMs);
  const { issues } = types;
  if (issues.length) {
    exam.set({
      name: 'interface',
      ok: false,
      message: `${issues.length} type error${issues.length === 1 ? '' : 's'}:\n${issues.slice(0, 20).join('\n')}${issues.length > 20 ? `\n… ${issues.length - 20} more` : ''}`,
      ...(types.location ? { location: types.location } : {}),
    });
  } else {
    const methods = Object.entries(instance.methods)
      .filter(([, t]) => t === 'function')
      .map(([k]) => k)
      .join(', ');
    exam.set({ name: 'interface', ok: true, message: `${options.typecheck === false ? 'loaded' : 'type-checked and loaded'}; methods: ${methods}` });
  }
  return instance;
}

/** The program's type errors against the contract, and where the first one is. */
async function typeIssues(source: ProgramSource, program: CompiledProgram, exam: Examination, limits?: TypecheckLimits): Promise<{ issues: string[]; location?: string }> {
  const tc = await limitedTypeChecker().check(source.entryPath, source.code, limits);
  exam.timings.typecheckMs = round(tc.ms);
  const entryName = relative(program.rootDir, resolveEntry(source.entryPath));
  const d0 = tc.diagnostics[0];
  return { issues: tc.diagnostics.map((d) => formatDiagnostic(d, entryName)), ...(d0 ? { location: `${d0.file}:${d0.line}:${d0.column}` } : {}) };
}

/** 3. update on sample episodes: true when every one passed. */
async function checkUpdates(instance: ProgramInstance, episodes: EpisodeRecorder[], exam: Examination): Promise<boolean> {
  const updated = await runUpdates(instance, episodes);
  exam.timings.updateMs = round(updated.ms);
  if (updated.error) {
    if (updated.error.kind === 'infra') exam.infrastructure = updated.error.message;
    exam.fail(
      { name: 'update', ok: false, message: `episode ${updated.case}: ${updated.error.message}`, ...locationOf(updated.error) },
      { check: 'update', case: updated.case, detail: updated.error.message, ...(updated.error.stack ? { stack: updated.error.stack } : {}) },
    );
    return false;
  }
  exam.set({ name: 'update', ok: true, message: `${episodes.length} sample episodes in ${round(updated.ms)} ms` });
  return true;
}

/** 4. retrieve on sample tasks; 5–6. payload schema and budget. */
async function checkRetrieves(instance: ProgramInstance, tasks: PartialRecorder[], options: QuickExamOptions, exam: Examination): Promise<void> {
  const budget = options.budget ?? DEFAULT_BUDGET;
  const started = performance.now();
  const schemaIssues: string[] = [];
  const budgetIssues: string[] = [];
  for (const task of tasks) {
    const r = await instance.retrieve(task);
    if (!r.ok) {
      exam.timings.retrieveMs = round(performance.now() - started);
      retrieveFailed(task.taskId, r.error, exam);
      return;
    }
    const checked = checkPayload(r.value, budget, options.services.images);
    exam.payloads.push(payloadSummary(task.taskId, checked));
    for (const issue of checked.schemaIssues) schemaIssues.push(`task ${task.taskId}: ${issue}`);
    for (const issue of checked.budgetIssues) budgetIssues.push(`task ${task.taskId}: ${issue}`);
  }
  exam.timings.retrieveMs = round(performance.now() - started);
  exam.set({ name: 'retrieve', ok: true, message: `${tasks.length} sample tasks in ${exam.timings.retrieveMs} ms` });
  exam.set(
    schemaIssues.length
      ? { name: 'payload-schema', ok: false, message: schemaIssues.join('\n') }
      : { name: 'payload-schema', ok: true, message: `${exam.payloads.length} payloads are valid {text, images, metadata?}` },
  );
  const maxText = Math.max(0, ...exam.payloads.map((p) => p.textChars));
  const maxImages = Math.max(0, ...exam.payloads.map((p) => p.images));
  exam.set(
    budgetIssues.length
      ? { name: 'payload-budget', ok: false, message: budgetIssues.join('\n') }
      : {
          name: 'payload-budget',
          ok: true,
          message: `largest text ${maxText.toLocaleString('en')} of ${budget.maxChars.toLocaleString('en')} characters; at most ${maxImages} of ${budget.maxImages} images`,
        },
  );
}

/** A retrieve that failed: a payload the boundary refused fails the schema check; anything else, retrieve. */
function retrieveFailed(taskId: string, error: SandboxError, exam: Examination): void {
  if (error.kind === 'payload') {
    exam.set({ name: 'retrieve', ok: true, message: `retrieve() returned for ${taskId}` });
    exam.fail({ name: 'payload-schema', ok: false, message: `task ${taskId}: ${error.message}` }, { check: 'payload-schema', case: taskId, detail: error.message });
    return;
  }
  if (error.kind === 'infra') exam.infrastructure = error.message;
  exam.fail(
    { name: 'retrieve', ok: false, message: `task ${taskId}: ${error.message}`, ...locationOf(error) },
    { check: 'retrieve', case: taskId, detail: error.message, ...(error.stack ? { stack: error.stack } : {}) },
  );
}

function payloadSummary(taskId: string, checked: ReturnType<typeof checkPayload>): PayloadSummary {
  return {
    taskId,
    textChars: checked.textChars,
    images: checked.payload.images.length,
    preview: checked.payload.text.slice(0, 240),
    digest: payloadDigest(checked.payload.text, checked.payload.images.map((i) => i.id), checked.payload.metadata),
  };
}

async function runUpdates(
  instance: ProgramInstance,
  episodes: EpisodeRecorder[],
): Promise<{ ms: number; error?: SandboxError; case?: string }> {
  const started = performance.now();
  const init = await instance.init();
  if (!init.ok) return { ms: performance.now() - started, error: init.error, case: '(init)' };
  for (const ep of episodes) {
    const r = await instance.update(ep);
    if (!r.ok) return { ms: performance.now() - started, error: r.error, case: ep.taskId };
  }
  return { ms: performance.now() - started };
}

function locationOf(err: SandboxError, fallback?: string): { location?: string } {
  const loc = err.location ?? fallback;
  return loc ? { location: loc } : {};
}
