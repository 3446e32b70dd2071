// automemo baselines --env <env>: the standard memory baselines (and the Omni-SimpleMem seed) in one table.
import { relative } from 'node:path';
import { z } from 'zod';
import { BASELINES, baselines, type BaselinesOptions, type EvalRuns, failureLine } from '../../api/evaluate.ts';
import { environments } from '../../api/environments.ts';
import { EVAL_OPTIONS, evalFields, evaluationPlace, parse, protocolUsage, seedArgs, seedUsage, WORKER_USAGE } from '../args.ts';
import { evalHeader, evalTable, scenarioTable, sourceLines } from '../format-eval.ts';
import type { Protocol } from '../../api/index.ts';
import { progressPrinter } from '../progress.ts';
import { noteToStderr } from '../style.ts';
import { toStdout } from '../terminal.ts';

export const usage = `automemo baselines --env <env> [options]

Evaluates the memory baselines side by side: ${BASELINES.join(', ')}.

Options:
  --env ENV           the environment, one of:
${environments.help('                        ')}
  --split S           validation (the tasks a search validates on; train is
                      the same) or test (held out; default)
  --programs A,B      only these programs (names or paths)
  --data DIR          the environment's data folder
  --strict            a data: benchmark must load whole: a world left out by
                      a bad field, or a line that is not JSON, is an error
                      (exit 1, naming file:line), not a note
${seedUsage(22)}
  --tasks N           only N of the split's tasks, a seeded sample (a quick look)
  --out DIR           where evidence goes (default search-trees/runs/baselines-<time>)
  --json              print the results as JSON
${protocolUsage(22)}
${WORKER_USAGE}`;

const Args = z.object({
  positionals: z.array(z.string()).max(0, 'baselines takes no positional arguments'),
  programs: z.string().optional(),
  ...evalFields(),
});

export async function run(argv: string[]): Promise<number> {
  const a = parse(argv, { ...EVAL_OPTIONS, programs: { type: 'string' } }, Args);
  return runBaselines({
    env: a.env,
    split: a.split,
    ...(a.programs ? { programs: a.programs.split(',') } : {}),
    ...(a.data ? { data: a.data } : {}),
    ...(a.strict ? { strict: true } : {}),
    ...seedArgs(a),
    ...(a.tasks !== undefined ? { tasks: a.tasks } : {}),
    ...(a.protocol ? { protocol: a.protocol } : {}),
    ...(a.out ? { out: a.out } : {}),
    ...evaluationPlace(a),
    json: a.json ?? false,
  });
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
