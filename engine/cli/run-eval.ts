// Shared by `eval` and `baselines`: evaluate named programs on an environment, write evidence, report. One
// program's failure — it does not compile, the compiler stays dead through its restarts, the evaluation throws —
// is recorded by name and the next program still runs: a command over several programs reports what finished.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Environment, InfraError, type Split } from '../environment/contract.ts';
import { toSafeName } from '../../foundation/safe-path.ts';
import { compileProgram, formatIssue } from '../../sandbox/compile.ts';
import type { HostServices } from '../../sandbox/primitives/index.ts';
import { ToolchainError } from '../../sandbox/toolchain-error.ts';
import { type EvaluationResult, evaluateProgram, type ProgressEvent } from '../evaluate/evaluate.ts';
import { EvidenceWriter } from '../evaluate/evidence.ts';
import { OutcomeCache } from '../evaluate/outcome-cache.ts';

export interface EvalRun {
  name: string;
  path: string;
}

export interface EvalRow {
  name: string;
  result: EvaluationResult;
  evidenceDir: string;
}

export interface EvalFailure {
  name: string;
  /** What went wrong, in words a user can act on. */
  reason: string;
  /** The machinery failed (compiler, browser, upstream service), not the program. */
  infrastructure: boolean;
}

export interface EvalRuns {
  /** Programs that finished, in the order given. */
  rows: EvalRow[];
  failures: EvalFailure[];
}

/** A one-line progress display on stderr when it is a terminal. */
export function progressPrinter(label: string): (e: ProgressEvent) => void {
  if (!process.stderr.isTTY) return () => undefined;
  const worlds = new Map<string, { done: number; total: number }>();
  return (e) => {
    if (e.kind === 'world-start') worlds.set(e.world, { done: 0, total: e.tasks });
    if (e.kind === 'task') worlds.set(e.world, { done: e.done, total: e.total });
    if (e.kind === 'retry') process.stderr.write(`\n${label}: world ${e.world}: retrying after an infrastructure failure (${e.reason})\n`);
    const done = [...worlds.values()].reduce((n, w) => n + w.done, 0);
    const total = [...worlds.values()].reduce((n, w) => n + w.total, 0);
    process.stderr.write(`\r${label}: ${done}/${total} tasks`.padEnd(60));
    if (e.kind === 'world-end' && [...worlds.values()].every((w) => w.done === w.total)) process.stderr.write('\r'.padEnd(61) + '\r');
  };
}

/** A failure, named: infrastructure when the compiler or an upstream service failed, else the program's. */
export function describeFailure(name: string, err: unknown): EvalFailure {
  const infrastructure = err instanceof ToolchainError || err instanceof InfraError;
  const message = err instanceof Error ? err.message : String(err);
  return { name, reason: infrastructure ? `infrastructure failure: ${message}` : message, infrastructure };
}

export async function runEvaluations(
  programs: EvalRun[],
  env: Environment,
  split: Split,
  services: HostServices,
  outDir: string,
  /** Called before each program (progress; tests use it to act between programs). */
  onProgram?: (name: string) => void | Promise<void>,
): Promise<EvalRuns> {
  mkdirSync(outDir, { recursive: true });
  const cache = new OutcomeCache();
  const out: EvalRuns = { rows: [], failures: [] };
  const entries: Record<string, unknown>[] = [];
  const folders = new Set<string>();
  for (const p of programs) {
    await onProgram?.(p.name);
    // A program given as a path names a folder of ours: a safe name, distinct from the others'.
    const base = toSafeName(p.name, 'program');
    let folder = base;
    for (let i = 2; folders.has(folder); i++) folder = `${base}-${i}`;
    folders.add(folder);
    try {
      const row = await evaluateOne(p, env, split, services, join(outDir, folder), cache);
      out.rows.push(row);
      const { name, result, evidenceDir } = row;
      entries.push({ name, evidenceDir, score: result.score, stats: result.stats, env: result.env, split: result.split });
    } catch (err) {
      const failure = describeFailure(p.name, err);
      out.failures.push(failure);
      entries.push({ name: p.name, error: failure.reason, infrastructure: failure.infrastructure });
    }
    // Rewritten after each program, so a command killed half-way keeps what finished.
    writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(entries, null, 2)}\n`);
  }
  return out;
}

async function evaluateOne(p: EvalRun, env: Environment, split: Split, services: HostServices, evidenceDir: string, cache: OutcomeCache): Promise<EvalRow> {
  const compiled = await compileProgram({ entryPath: p.path });
  if (!compiled.ok) throw new Error(`${p.name} does not compile:\n${compiled.issues.map(formatIssue).join('\n')}`);
  const evidence = new EvidenceWriter(evidenceDir, services.images);
  const result = await evaluateProgram(compiled.program, { env, split, services, evidence, outcomeCache: cache, onProgress: progressPrinter(p.name) });
  await evidence.summary(result);
  return { name: p.name, result, evidenceDir };
}
