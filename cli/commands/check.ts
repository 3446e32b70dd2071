// automemo check <program> [--json]: quick-examines one memo program. Exit 0 when it passes, 1 when it does not.
import { z } from 'zod';
import { check } from '../../api/check.ts';
import { noteToStderr } from '../style.ts';
import { intOption, parse, SEED_OPTIONS, seedArgs, seedFields, seedUsage } from '../args.ts';
import { formatQuickExam } from '../format-quick-exam.ts';
import { toStdout } from '../terminal.ts';

export const usage = `automemo check <program.ts | program-folder> [options]

Quick-examines a memo program: imports, interface (type-check), update on sample
episodes, retrieve on sample tasks, payload schema, payload budget.

Options:
  --json               print the report as JSON
  --env NAME           use this environment's sample episodes, tasks and budget
                       (e.g. locomo) instead of the built-in samples
  --budget-chars N     payload text budget (default 50000)
  --budget-images N    payload image budget (default 2)
  --heap-mb N          isolate heap cap (default 256)
  --cpu-ms N           CPU time per call (default 10000)
  --wall-ms N          wall-clock time per call (default 60000)
${seedUsage(23)}

Exit status: 0 passed, 1 failed, 2 bad arguments.`;

const Args = z.object({
  positionals: z.array(z.string()).length(1, 'give exactly one program file or folder'),
  json: z.boolean().optional(),
  env: z.string().optional(),
  'budget-chars': intOption(1, 10_000_000),
  'budget-images': intOption(0, 100),
  'heap-mb': intOption(16, 4096),
  'cpu-ms': intOption(10, 3_600_000),
  'wall-ms': intOption(10, 3_600_000),
  ...seedFields(),
});

export async function run(argv: string[]): Promise<number> {
  const a = parse(
    argv,
    {
      json: { type: 'boolean' },
      env: { type: 'string' },
      'budget-chars': { type: 'string' },
      'budget-images': { type: 'string' },
      'heap-mb': { type: 'string' },
      'cpu-ms': { type: 'string' },
      'wall-ms': { type: 'string' },
      ...SEED_OPTIONS,
    },
    Args,
  );
  const limits = {
    ...(a['heap-mb'] ? { heapMb: a['heap-mb'] } : {}),
    ...(a['cpu-ms'] ? { callCpuMs: a['cpu-ms'] } : {}),
    ...(a['wall-ms'] ? { callWallMs: a['wall-ms'] } : {}),
  };
  const report = await check({
    program: a.positionals[0] as string,
    ...(a.env ? { env: a.env } : {}),
    budget: { ...(a['budget-chars'] ? { maxChars: a['budget-chars'] } : {}), ...(a['budget-images'] !== undefined ? { maxImages: a['budget-images'] } : {}) },
    limits,
    ...seedArgs(a),
    onNote: noteToStderr,
  });
  toStdout(a.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatQuickExam(report)}\n`);
  return report.passed ? 0 : 1;
}
