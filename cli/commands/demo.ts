// automemo demo: the offline tour — a short budget-aware tree search on the shipped LoCoMo conversations, starting
// from the no-memory root, the Omni-SimpleMem seed and the pipeline seed, with the offline meta agent; it prints each step, the final
// table (validation and held-out test scores of the selected program, the root and the seed), the run folder, and
// writes the run's HTML report into it.
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { defaultRunFolder, renderReport } from '../../api/runs.ts';
import { commandHelp, defaultsOf, withDefaults } from '../../api/options/derive.ts';
import { noPositionals, parse } from '../args.ts';
import { searchCommand } from './search.ts';
import { toStdout } from '../terminal.ts';

export const usage = commandHelp(
  'demo',
  `automemo demo [--budget N] [--out DIR] [--data DIR]

Offline tour: a ${defaultsOf('demo').budget}-step tree search over memo programs on the shipped LoCoMo
conversations (reward: evidence recall), seeded with Omni-SimpleMem and a
retrieval pipeline built from automemo/lib's stages, using the offline meta
agent (it edits the pipeline's stages and constants). Prints every step, the
final table and the run folder, and writes report.html there (the viewer's page
as one file; "automemo view <run>" serves it live). Takes a few minutes on a
laptop.`,
  'For the memory baselines side by side: automemo baselines --env locomo.',
);

export async function run(argv: string[]): Promise<number> {
  const a = withDefaults('demo', parse('demo', argv, { positionals: noPositionals('demo') }));
  const out = a.out ?? defaultRunFolder('demo');
  // The default seeds: Omni-SimpleMem, and a pipeline of automemo/lib's stages that the offline agent edits structurally.
  const search = { env: 'locomo', budget: a.budget, out, meta: 'offline' as const, ...(a.data ? { data: a.data } : {}) };
  const code = await searchCommand(search, 'automemo demo');
  if (code !== 0) return code;
  const report = join(out, 'report.html');
  writeFileSync(report, renderReport(out).html);
  const shown = relative(process.cwd(), out) || out;
  toStdout(`report: ${relative(process.cwd(), report) || report} (open it in a browser; "automemo view ${shown}" serves the same page live)\n`);
  return 0;
}
