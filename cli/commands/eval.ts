// automemo eval --env <env> [--program] <name|path>: update-then-retrieve evaluation of one program.
import { relative } from 'node:path';
import { z } from 'zod';
import { evaluate, EvaluationFailed, type EvaluateResult, splitName } from '../../api/evaluate.ts';
import { type CommandLineValues, commandHelp } from '../../api/options/derive.ts';
import { parse, UsageError } from '../args.ts';
import { evalHeader, evalTable, scenarioTable, sourceLines } from '../format-eval.ts';
import { progressPrinter } from '../progress.ts';
import { noteToStderr } from '../style.ts';
import { toStdout, toStderr } from '../terminal.ts';

export const usage = commandHelp(
  'eval',
  `automemo eval --env <env> --program <name|path> [options]
automemo eval <name|path> --env <env> [options]

Evaluates one memo program: for each world, update on every episode in order,
then retrieve for each task of the split; the agent runs with the payload and
the checker scores it.`,
  `Models: set AUTOMEMO_EXECUTOR_MODEL (and OPENAI_BASE_URL / OPENAI_API_KEY) to
have a model answer; without one the offline reference agent and checker run.`,
);

/** As \`check\` takes it: \`automemo eval ./my-program --env …\` is the same as \`--program ./my-program\`. */
const positionals = z.array(z.string()).max(1, 'eval takes one program: give it alone or as --program, not more');

type Given = Partial<CommandLineValues<'eval'>>;

function programGivenOnce(a: Given, [alone]: string[]): Given {
  if (alone !== undefined && a.program !== undefined)
    throw new UsageError(`give the program once: "${alone}" and --program ${a.program}`);
  const program = a.program ?? alone;
  if (program === undefined)
    throw new UsageError('give a program: automemo eval <name|path> --env <env> (or --program <name|path>)');
  return { ...a, program };
}

export async function run(argv: string[]): Promise<number> {
  const { json, positionals: _, ...a } = parse('eval', argv, { positionals, merge: programGivenOnce });
  let res: EvaluateResult;
  try {
    res = await evaluate({
      ...a,
      onNote: noteToStderr,
      onProgress: progressPrinter(),
    });
  } catch (err) {
    if (!(err instanceof EvaluationFailed)) throw err;
    toStderr(`automemo eval: ${err.message}\n`);
    return 1;
  }
  if (json) {
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
