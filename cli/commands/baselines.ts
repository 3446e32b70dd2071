// automemo baselines --env <env>: the standard memory baselines (and the Omni-SimpleMem seed) in one table.
import { relative } from 'node:path';
import { BASELINES, baselines, type BaselinesOptions, type EvalRuns, failureLine } from '../../api/evaluate.ts';
import { commandHelp } from '../../api/options/derive.ts';
import { noPositionals, parse } from '../args.ts';
import { evalHeader, evalTable, scenarioTable, sourceLines } from '../format-eval.ts';
import type { Protocol } from '../../api/index.ts';
import { progressPrinter } from '../progress.ts';
import { noteToStderr } from '../style.ts';
import { toStdout } from '../terminal.ts';

export const usage = commandHelp(
  'baselines',
  `automemo baselines --env <env> [options]

Evaluates the memory baselines side by side: ${BASELINES.join(', ')}.`,
);

export async function run(argv: string[]): Promise<number> {
  const { json, positionals: _, ...a } = parse('baselines', argv, { positionals: noPositionals('baselines') });
  return runBaselines({ ...a, json: json ?? false });
}

export async function runBaselines(o: Omit<BaselinesOptions, 'onNote' | 'onProgress'> & { json: boolean }): Promise<number> {
  const { json: _json, ...options } = o;
  const runs = await baselines({ ...options, onNote: noteToStderr, onProgress: progressPrinter() });
  if (o.json) {
    const rows = runs.rows.map(({ name, result, evidenceDir }) => ({
      name,
      score: result.score,
      stats: result.stats,
      evidenceDir,
    }));
    const failed = runs.failures.map(({ name, reason, infrastructure, environment }) => ({ name, error: reason, infrastructure, ...(environment ? { environment } : {}) }));
    toStdout(`${JSON.stringify([...rows, ...failed], null, 2)}\n`);
  } else {
    toStdout(baselinesText(runs, relative(process.cwd(), runs.resultsPath)));
  }
  // Non-zero only now, after the table: the programs that finished are reported whatever failed.
  return runs.failures.length ? 1 : 0;
}

/** The table of the programs that finished, then each failure by name. */
export function baselinesText(runs: EvalRuns & { evaluation?: string; protocol?: Protocol }, resultsPath: string): string {
  const parts: string[] = [];
  const first = runs.rows[0];
  if (first)
    parts.push(`${evalHeader(first.result, runs.evaluation, runs.protocol)}\n\n${evalTable(runs.rows)}\n\nby scenario:\n${scenarioTable(runs.rows)}\n${sourceLines(runs.rows)}`);
  for (const f of runs.failures)
    parts.push(`${failureLine(f)}\n`);
  if (runs.failures.length)
    parts.push(`${runs.rows.length} of ${runs.rows.length + runs.failures.length} programs finished\n`);
  parts.push(`results: ${resultsPath}\n`);
  return parts.join('\n');
}
