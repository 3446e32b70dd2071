// Shared by `eval`, `baselines` and `demo`: evaluate named programs on an environment, write evidence, report.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Environment, Split } from '../../envs/types.ts';
import { compileProgram, formatIssue } from '../../sandbox/compile.ts';
import type { HostServices } from '../../sandbox/primitives/index.ts';
import { type EvaluationResult, evaluateProgram, type ProgressEvent } from '../evaluate/evaluate.ts';
import { EvidenceWriter } from '../evaluate/evidence.ts';
import { OutcomeCache } from '../evaluate/outcome-cache.ts';

export interface EvalRun {
  name: string;
  path: string;
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

export async function runEvaluations(
  programs: EvalRun[],
  env: Environment,
  split: Split,
  services: HostServices,
  outDir: string,
): Promise<{ name: string; result: EvaluationResult; evidenceDir: string }[]> {
  mkdirSync(outDir, { recursive: true });
  const cache = new OutcomeCache();
  const out: { name: string; result: EvaluationResult; evidenceDir: string }[] = [];
  for (const p of programs) {
    const compiled = await compileProgram({ entryPath: p.path });
    if (!compiled.ok) throw new Error(`${p.name} does not compile:\n${compiled.issues.map(formatIssue).join('\n')}`);
    const evidenceDir = join(outDir, p.name.replace(/[^\w.-]+/g, '_'));
    const evidence = new EvidenceWriter(evidenceDir, services.images);
    const result = await evaluateProgram(compiled.program, {
      env,
      split,
      services,
      evidence,
      outcomeCache: cache,
      onProgress: progressPrinter(p.name),
    });
    await evidence.summary(result);
    out.push({ name: p.name, result, evidenceDir });
  }
  writeFileSync(
    join(outDir, 'results.json'),
    `${JSON.stringify(
      out.map(({ name, result, evidenceDir }) => ({ name, evidenceDir, score: result.score, stats: result.stats, env: result.env, split: result.split })),
      null,
      2,
    )}\n`,
  );
  return out;
}
