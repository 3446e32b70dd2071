// automemo eval --env <env> [--program] <name|path>: update-then-retrieve evaluation of one program.
import { relative } from 'node:path';
import { z } from 'zod';
import { evaluate, EvaluationFailed, type EvaluateResult, splitName } from '../../api/evaluate.ts';
import { environments } from '../../api/environments.ts';
import { EVAL_OPTIONS, evalFields, evaluationPlace, parse, protocolUsage, seedArgs, seedUsage, WORKER_USAGE } from '../args.ts';
import { evalHeader, evalTable, scenarioTable, sourceLines } from '../format-eval.ts';
import { progressPrinter } from '../progress.ts';
import { noteToStderr } from '../style.ts';
import { toStdout, toStderr } from '../terminal.ts';

export const usage = `automemo eval --env <env> --program <name|path> [options]
automemo eval <name|path> --env <env> [options]

Evaluates one memo program: for each world, update on every episode in order,
then retrieve for each task of the split; the agent runs with the payload and
the checker scores it.

Options:
  --env ENV         the environment, one of:
${environments.help('                      ')}
  --program P       a program name (no-memory, omni-simplemem, bm25, dense,
                    trajectory-retrieval, reasoning-bank, g-memory) or a path
                    (a file or folder; also accepted alone, as check takes it)
  --split S         validation (the tasks a search validates on; train is
                    the same) or test (held out; default)
  --data DIR        the environment's data folder (locomo: conversation files)
  --strict          a data: benchmark must load whole: a world left out by a
                    bad field, or a line that is not JSON, is an error
                    (exit 1, naming file:line), not a note
${seedUsage(20)}
  --tasks N         only N of the split's tasks, a seeded sample (a quick look;
                    scores on different samples do not compare)
  --out DIR         where evidence goes (default search-trees/runs/eval-<time>)
  --json            print the result as JSON
${protocolUsage(20)}
${WORKER_USAGE}

Models: set AUTOMEMO_EXECUTOR_MODEL (and OPENAI_BASE_URL / OPENAI_API_KEY) to
have a model answer; without one the offline reference agent and checker run.`;

const Args = z
  .object({
    positionals: z.array(z.string()).max(1, 'eval takes one program: give it alone or as --program, not more'),
    program: z.string().optional(),
    ...evalFields(),
  })
  // As `check` takes it: `automemo eval ./my-program --env …` is the same as `--program ./my-program`.
  .transform((a, ctx) => {
    const [alone] = a.positionals;
    if (alone !== undefined && a.program !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['positionals'], message: `give the program once: "${alone}" and --program ${a.program}` });
      return z.NEVER;
    }
    const program = a.program ?? alone;
    if (program === undefined) {
      ctx.addIssue({ code: 'custom', path: ['positionals'], message: 'give a program: automemo eval <name|path> --env <env> (or --program <name|path>)' });
      return z.NEVER;
    }
    return { ...a, program };
  });

export async function run(argv: string[]): Promise<number> {
  const a = parse(argv, { ...EVAL_OPTIONS, program: { type: 'string' } }, Args);
  let res: EvaluateResult;
  try {
    res = await evaluate({
      env: a.env,
      program: a.program,
      split: a.split,
      ...(a.data ? { data: a.data } : {}),
      ...(a.strict ? { strict: true } : {}),
      ...seedArgs(a),
      ...(a.tasks !== undefined ? { tasks: a.tasks } : {}),
      ...(a.protocol ? { protocol: a.protocol } : {}),
      ...(a.out ? { out: a.out } : {}),
      ...evaluationPlace(a),
      onNote: noteToStderr,
      onProgress: progressPrinter(),
    });
  } catch (err) {
    if (!(err instanceof EvaluationFailed)) throw err;
    toStderr(`automemo eval: ${err.message}\n`);
    return 1;
  }
  if (a.json) {
    const { tasks: _tasks, name: _name, envSource: _source, ...rest } = res;
    toStdout(`${JSON.stringify({ ...rest, split: splitName(res.split), evidenceDir: res.evidenceDir }, null, 2)}\n`);
  } else {
    const row = { name: res.name, result: res, evidenceDir: res.evidenceDir };
    toStdout(
      `${evalHeader(res, res.evaluation, res.protocol)}\n\n${evalTable([row])}\n\nby scenario:\n${scenarioTable([row])}\n${sourceLines([row])}\nevidence: ${relative(process.cwd(), res.evidenceDir) || res.evidenceDir}\n`,
    );
  }
  return 0;
}
