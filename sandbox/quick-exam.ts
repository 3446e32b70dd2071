// Quick examination (the paper's C.4): the six checks every candidate passes before a full evaluation —
// imports, interface, update on sample episodes, retrieve on sample tasks, payload schema, payload budget.
// Each failed check names what happened and where, in words a person (or the repair prompt) can act on.
import { createHash } from 'node:crypto';
import type { EpisodeRecorder } from '../memo-programs/contract.ts';
import { compileProgram, formatIssue, type ProgramSource, resolveEntry } from './compile.ts';
import { type SandboxError, type SandboxLimits, ProgramInstance } from './isolate.ts';
import { checkPayload, DEFAULT_BUDGET, type PayloadBudget } from './payload.ts';
import { type HostServices, type InstanceUsage, InstancePrimitives } from './primitives/index.ts';
import type { Quotas } from './primitives/quotas.ts';
import { ToolchainError } from './toolchain-error.ts';
import { builtinSamples, type Samples } from './samples.ts';
import { formatDiagnostic, typeChecker } from './typecheck.ts';
import { relative } from 'node:path';

export const CHECK_NAMES = ['imports', 'interface', 'update', 'retrieve', 'payload-schema', 'payload-budget'] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

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
  /** sha256 of the payload as the agent gets it (text and image ids): equal digests, equal behaviour. */
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

async function examineOnce(source: ProgramSource, options: QuickExamOptions): Promise<QuickExamReport> {
  const started = performance.now();
  const entry = resolveEntry(source.entryPath);
  const budget = options.budget ?? DEFAULT_BUDGET;
  const checks = new Map<CheckName, Check>();
  const timings = { compileMs: 0, typecheckMs: 0, loadMs: 0, updateMs: 0, retrieveMs: 0, totalMs: 0 };
  const payloads: PayloadSummary[] = [];
  let failure: QuickExamReport['failure'];
  let infrastructure: string | undefined;
  let primitives: InstancePrimitives | undefined = undefined;
  const set = (c: Check) => {
    checks.set(c.name, c);
    if (!c.ok && !failure) failure = { check: c.name, detail: c.message };
  };
  const finish = (hash?: string): QuickExamReport => {
    for (const name of CHECK_NAMES) {
      if (!checks.has(name)) checks.set(name, { name, ok: false, message: 'not run: an earlier check failed' });
    }
    timings.totalMs = round(performance.now() - started);
    const list = CHECK_NAMES.map((n) => checks.get(n) as Check);
    const report: QuickExamReport = {
      program: relative(process.cwd(), entry) || entry,
      passed: list.every((c) => c.ok),
      checks: list,
      usage: primitives?.usage() ?? null,
      timings,
      payloads,
      modes: options.services.modes,
    };
    if (hash) report.hash = hash;
    if (failure) report.failure = failure;
    if (infrastructure) report.infrastructure = infrastructure;
    return report;
  };

  // 1. imports: the program bundles, and imports only what the allow-list permits.
  const compiled = await compileProgram(source);
  timings.compileMs = round(compiled.ok ? compiled.program.ms : compiled.ms);
  if (!compiled.ok) {
    const first = compiled.issues[0];
    set({
      name: 'imports',
      ok: false,
      message: compiled.issues.map(formatIssue).join('\n'),
      ...(first?.file && first.line ? { location: `${first.file}:${first.line}:${first.column ?? 1}` } : {}),
    });
    return finish();
  }
  const program = compiled.program;
  set({
    name: 'imports',
    ok: true,
    message: `bundled ${program.files.length} program file${program.files.length === 1 ? '' : 's'} into ${kb(program.code.length)}`,
  });

  // 2. interface: types agree with the contract, and the loaded default export has update() and retrieve().
  const typeIssues: string[] = [];
  let typeLocation: string | undefined;
  if (options.typecheck !== false) {
    const tc = typeChecker().check(source.entryPath, source.code);
    timings.typecheckMs = round(tc.ms);
    const entryName = relative(program.rootDir, entry);
    for (const d of tc.diagnostics) typeIssues.push(formatDiagnostic(d, entryName));
    const d0 = tc.diagnostics[0];
    if (d0) typeLocation = `${d0.file}:${d0.line}:${d0.column}`;
  }
  primitives = new InstancePrimitives(options.services, options.quotas ? { quotas: options.quotas } : {});
  const startOpts = { budget, ...(options.limits ? { limits: options.limits } : {}), ...(options.seed !== undefined ? { seed: options.seed } : {}) };
  const started2 = await ProgramInstance.start(program, primitives, startOpts);
  if (!started2.ok) {
    timings.loadMs = round(started2.ms);
    const err = started2.error;
    const messages = [err.message, ...typeIssues.map((t) => `type error ${t}`)];
    set({ name: 'interface', ok: false, message: messages.join('\n'), ...locationOf(err, typeLocation) });
    if (err.stack) failure = { check: 'interface', detail: err.message, stack: err.stack };
    primitives.dispose();
    return finish(program.hash);
  }
  const instance = started2.instance;
  timings.loadMs = round(instance.loadMs);
  const methods = Object.entries(instance.methods)
    .filter(([, t]) => t === 'function')
    .map(([k]) => k)
    .join(', ');
  if (typeIssues.length) {
    set({
      name: 'interface',
      ok: false,
      message: `${typeIssues.length} type error${typeIssues.length === 1 ? '' : 's'}:\n${typeIssues.slice(0, 20).join('\n')}${typeIssues.length > 20 ? `\n… ${typeIssues.length - 20} more` : ''}`,
      ...(typeLocation ? { location: typeLocation } : {}),
    });
  } else {
    set({
      name: 'interface',
      ok: true,
      message: `${options.typecheck === false ? 'loaded' : 'type-checked and loaded'}; methods: ${methods}`,
    });
  }

  try {
    const samples = options.samples ?? (await builtinSamples(options.services.images));
    // 3. update on sample episodes.
    const updated = await runUpdates(instance, samples.episodes);
    timings.updateMs = round(updated.ms);
    if (updated.error) {
      if (updated.error.kind === 'infra') infrastructure = updated.error.message;
      set({ name: 'update', ok: false, message: `episode ${updated.case}: ${updated.error.message}`, ...locationOf(updated.error) });
      failure = { check: 'update', case: updated.case, detail: updated.error.message, ...(updated.error.stack ? { stack: updated.error.stack } : {}) };
      return finish(program.hash);
    }
    set({ name: 'update', ok: true, message: `${samples.episodes.length} sample episodes in ${round(updated.ms)} ms` });

    // 4. retrieve on sample tasks, with memory frozen as in evaluation; 5–6. payload schema and budget.
    primitives.freeze();
    const retrieveStarted = performance.now();
    const schemaIssues: string[] = [];
    const budgetIssues: string[] = [];
    for (const task of samples.tasks) {
      const r = await instance.retrieve(task);
      if (!r.ok) {
        timings.retrieveMs = round(performance.now() - retrieveStarted);
        if (r.error.kind === 'payload') {
          set({ name: 'retrieve', ok: true, message: `retrieve() returned for ${task.taskId}` });
          set({ name: 'payload-schema', ok: false, message: `task ${task.taskId}: ${r.error.message}` });
          failure = { check: 'payload-schema', case: task.taskId, detail: r.error.message };
        } else {
          if (r.error.kind === 'infra') infrastructure = r.error.message;
          set({ name: 'retrieve', ok: false, message: `task ${task.taskId}: ${r.error.message}`, ...locationOf(r.error) });
          failure = { check: 'retrieve', case: task.taskId, detail: r.error.message, ...(r.error.stack ? { stack: r.error.stack } : {}) };
        }
        return finish(program.hash);
      }
      const checked = checkPayload(r.value, budget, options.services.images);
      payloads.push({
        taskId: task.taskId,
        textChars: checked.textChars,
        images: checked.payload.images.length,
        preview: checked.payload.text.slice(0, 240),
        digest: createHash('sha256').update(JSON.stringify([checked.payload.text, checked.payload.images.map((i) => i.id)])).digest('hex'),
      });
      for (const issue of checked.schemaIssues) schemaIssues.push(`task ${task.taskId}: ${issue}`);
      for (const issue of checked.budgetIssues) budgetIssues.push(`task ${task.taskId}: ${issue}`);
    }
    timings.retrieveMs = round(performance.now() - retrieveStarted);
    set({ name: 'retrieve', ok: true, message: `${samples.tasks.length} sample tasks in ${timings.retrieveMs} ms` });
    set(
      schemaIssues.length
        ? { name: 'payload-schema', ok: false, message: schemaIssues.join('\n') }
        : { name: 'payload-schema', ok: true, message: `${payloads.length} payloads are valid {text, images, metadata?}` },
    );
    const maxText = Math.max(0, ...payloads.map((p) => p.textChars));
    const maxImages = Math.max(0, ...payloads.map((p) => p.images));
    set(
      budgetIssues.length
        ? { name: 'payload-budget', ok: false, message: budgetIssues.join('\n') }
        : {
            name: 'payload-budget',
            ok: true,
            message: `largest text ${maxText.toLocaleString('en')} of ${budget.maxChars.toLocaleString('en')} characters; at most ${maxImages} of ${budget.maxImages} images`,
          },
    );
    return finish(program.hash);
  } finally {
    instance.dispose();
    primitives.dispose();
  }
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
