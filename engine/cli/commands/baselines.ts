// automemo baselines --env <env>: the standard memory baselines (and the Omni-SimpleMem seed) in one table.
import { join, relative } from 'node:path';
import { z } from 'zod';
import { loadEnvironment } from '../../../envs/registry.ts';
import { BASELINES, resolveProgram } from '../../../memo-programs/registry.ts';
import { repoRoot } from '../../../sandbox/paths.ts';
import { closeHostServices, createHostServices } from '../../../sandbox/primitives/index.ts';
import { resolveModels } from '../../llm/models.ts';
import { asUsage, EVAL_OPTIONS, evalFields, parse, UsageError } from '../args.ts';
import { evalHeader, evalTable, scenarioTable } from '../format-eval.ts';
import { noteToStderr } from '../style.ts';
import { type EvalRuns, runEvaluations } from '../run-eval.ts';

export const usage = `automemo baselines --env <env> [options]

Evaluates the memory baselines side by side: ${BASELINES.join(', ')}.

Options:
  --env NAME          environment: locomo, visual, web (visual:charts,mazes or
                      web:shop,travel for some families or sites)
  --split S           train or test (default test)
  --programs A,B      only these programs (names or paths)
  --data DIR          the environment's data folder
  --seed N            split seed (default 0)
  --out DIR           where evidence goes (default search-trees/runs/baselines-<time>)
  --json              print the results as JSON`;

const Args = z.object({
  positionals: z.array(z.string()).max(0, 'baselines takes no positional arguments'),
  programs: z.string().optional(),
  ...evalFields(),
});

export async function run(argv: string[]): Promise<number> {
  const a = parse(
    argv,
    { ...EVAL_OPTIONS, programs: { type: 'string' } },
    Args,
  );
  return runBaselines({ env: a.env, split: a.split, ...(a.programs ? { programs: a.programs.split(',') } : {}), ...(a.data ? { data: a.data } : {}), ...(a.seed !== undefined ? { seed: a.seed } : {}), ...(a.out ? { out: a.out } : {}), json: a.json ?? false });
}

export async function runBaselines(o: { env: string; split: 'train' | 'test'; programs?: string[]; data?: string; seed?: number; out?: string; json: boolean }): Promise<number> {
  let programs: { name: string; path: string }[];
  try {
    programs = (o.programs ?? BASELINES).map((p) => resolveProgram(p.trim()));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const models = resolveModels();
  const services = createHostServices(models);
  const env = await asUsage(() =>
    loadEnvironment(o.env, { models, images: services.images, onNote: noteToStderr, ...(o.data ? { data: o.data } : {}), ...(o.seed !== undefined ? { seed: o.seed } : {}) }),
  );
  const out = o.out ?? join(repoRoot, 'search-trees', 'runs', `baselines-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  try {
    const runs = await runEvaluations(programs, env, o.split, services, out);
    if (o.json) {
      const rows = runs.rows.map(({ name, result, evidenceDir }) => ({ name, score: result.score, stats: result.stats, evidenceDir }));
      const failed = runs.failures.map(({ name, reason, infrastructure }) => ({ name, error: reason, infrastructure }));
      process.stdout.write(`${JSON.stringify([...rows, ...failed], null, 2)}\n`);
    } else {
      process.stdout.write(baselinesText(runs, relative(process.cwd(), join(out, 'results.json'))));
    }
    // Non-zero only now, after the table: the programs that finished are reported whatever failed.
    return runs.failures.length ? 1 : 0;
  } finally {
    await env.close?.();
    await closeHostServices();
  }
}

/** The table of the programs that finished, then each failure by name. */
export function baselinesText(runs: EvalRuns, resultsPath: string): string {
  const parts: string[] = [];
  const first = runs.rows[0];
  if (first) parts.push(`${evalHeader(first.result)}\n\n${evalTable(runs.rows)}\n\nby scenario:\n${scenarioTable(runs.rows)}\n`);
  for (const f of runs.failures) parts.push(`${f.name} failed${f.infrastructure ? ' (not the program\'s fault)' : ''}: ${f.reason}\n`);
  if (runs.failures.length) parts.push(`${runs.rows.length} of ${runs.rows.length + runs.failures.length} programs finished\n`);
  parts.push(`results: ${resultsPath}\n`);
  return parts.join('\n');
}
