// automemo eval --env <env> --program <name|path>: update-then-retrieve evaluation of one program.
import { join, relative } from 'node:path';
import { z } from 'zod';
import { loadEnvironment } from '../../../envs/registry.ts';
import { resolveProgram } from '../../../memo-programs/registry.ts';
import { repoRoot } from '../../../sandbox/paths.ts';
import { closeHostServices, createHostServices } from '../../../sandbox/primitives/index.ts';
import { resolveModels } from '../../llm/models.ts';
import { asUsage, EVAL_OPTIONS, evalFields, parse, UsageError } from '../args.ts';
import { evalHeader, evalTable, scenarioTable } from '../format-eval.ts';
import { noteToStderr } from '../style.ts';
import { runEvaluations } from '../run-eval.ts';

export const usage = `automemo eval --env <env> --program <name|path> [options]

Evaluates one memo program: for each world, update on every episode in order,
then retrieve for each task of the split; the agent runs with the payload and
the checker scores it.

Options:
  --env NAME        environment: locomo, visual, web (visual:charts,mazes or
                    web:shop,travel for some families or sites)
  --program P       a program name (no-memory, omni-simplemem, bm25, dense,
                    trajectory-retrieval, reasoning-bank, g-memory) or a path
  --split S         train (the validation tasks the search uses) or test
                    (held out; default)
  --data DIR        the environment's data folder (locomo: conversation files)
  --seed N          split seed (default 0)
  --out DIR         where evidence goes (default search-trees/runs/eval-<time>)
  --json            print the result as JSON

Models: set AUTOMEMO_EXECUTOR_MODEL (and OPENAI_BASE_URL / OPENAI_API_KEY) to
have a model answer; without one the offline reference agent and checker run.`;

const Args = z.object({
  positionals: z.array(z.string()).max(0, 'eval takes no positional arguments'),
  program: z.string({ error: 'give --program' }),
  ...evalFields(),
});

export async function run(argv: string[]): Promise<number> {
  const a = parse(
    argv,
    { ...EVAL_OPTIONS, program: { type: 'string' } },
    Args,
  );
  let program: { name: string; path: string };
  try {
    program = resolveProgram(a.program);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const models = resolveModels();
  const services = createHostServices(models);
  const env = await asUsage(() =>
    loadEnvironment(a.env, { models, images: services.images, onNote: noteToStderr, ...(a.data ? { data: a.data } : {}), ...(a.seed !== undefined ? { seed: a.seed } : {}) }),
  );
  const out = a.out ?? join(repoRoot, 'search-trees', 'runs', `eval-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  try {
    const { rows, failures } = await runEvaluations([program], env, a.split, services, out);
    const res = rows[0];
    if (!res) {
      for (const f of failures) process.stderr.write(`automemo eval: ${f.name} failed${f.infrastructure ? ' (not the program\'s fault)' : ''}: ${f.reason}\n`);
      return 1;
    }
    if (a.json) {
      const { tasks: _tasks, ...rest } = res.result;
      process.stdout.write(`${JSON.stringify({ ...rest, evidenceDir: res.evidenceDir }, null, 2)}\n`);
    } else {
      process.stdout.write(`${evalHeader(res.result)}\n\n${evalTable([res])}\n\nby scenario:\n${scenarioTable([res])}\n\nevidence: ${relative(process.cwd(), res.evidenceDir) || res.evidenceDir}\n`);
    }
    return 0;
  } finally {
    await env.close?.();
    await closeHostServices();
  }
}
