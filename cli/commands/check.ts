// automemo check <program> [--json]: quick-examines one memo program. Exit 0 when it passes, 1 when it does not.
import { z } from 'zod';
import { check } from '../../api/check.ts';
import { noteToStderr } from '../style.ts';
import { commandHelp } from '../../api/options/derive.ts';
import { parse } from '../args.ts';
import { formatQuickExam } from '../format-quick-exam.ts';
import { toStdout } from '../terminal.ts';

export const usage = commandHelp(
  'check',
  `automemo check <program.ts | program-folder> [options]

Quick-examines a memo program: imports, interface (type-check), update on sample
episodes, retrieve on sample tasks, payload schema, payload budget.`,
  'Exit status: 0 passed, 1 failed, 2 bad arguments.',
);

export async function run(argv: string[]): Promise<number> {
  const { json, positionals, ...a } = parse('check', argv, {
    positionals: z.array(z.string()).length(1, 'give exactly one program file or folder'),
  });
  const report = await check({ ...a, program: positionals[0] as string, onNote: noteToStderr });
  toStdout(json ? `${JSON.stringify(report, null, 2)}\n` : `${formatQuickExam(report)}\n`);
  return report.passed ? 0 : 1;
}
