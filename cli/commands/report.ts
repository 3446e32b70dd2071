// automemo report: a run's summary as text, or (--html) the viewer's page as one self-contained file.
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { readRun, readRunInfo, REPORT_LIMITS, renderReport, textSummary } from '../../api/runs.ts';
import { runEnvironmentNote } from '../../api/environments.ts';
import { noteToStderr } from '../style.ts';
import { commandHelp } from '../../api/options/derive.ts';
import { parse } from '../args.ts';
import { toStdout } from '../terminal.ts';

export const usage = commandHelp(
  'report',
  `automemo report <run-folder> [--html FILE] [--images-mb N]

Without --html: prints the run (env, mode, settings, status), every node with
its mean, evaluations and LCB, the selected program and its test score.
With --html: writes one self-contained HTML file with the viewer's views (tree,
score over steps, action log, nodes, diffs, feedback, per-task outcomes);
it opens offline. Long payloads are clipped, and images are inlined up to
--images-mb megabytes in all; the page says what was left out.`,
);

export async function run(argv: string[]): Promise<number> {
  const positionals = z.array(z.string()).length(1, 'give the run folder: automemo report <run-folder>');
  const a = parse('report', argv, { positionals });
  const dir = a.positionals[0] as string;
  const changed = await runEnvironmentNote(dir, readRunInfo(dir).envSource);
  if (changed) noteToStderr(changed);
  if (!a.html) {
    toStdout(`${textSummary(readRun(dir))}\n`);
    return 0;
  }
  const limits = { ...REPORT_LIMITS, ...(a.imagesMb !== undefined ? { totalImageBytes: a.imagesMb * 1e6 } : {}) };
  const { html, bundle } = renderReport(dir, limits);
  writeFileSync(a.html, html);
  const kept = Object.keys(bundle.images).length;
  toStdout(
    `wrote ${a.html} (${(Buffer.byteLength(html) / 1e6).toFixed(1)} MB): ${bundle.run.nodes.length} nodes, ${Object.keys(bundle.evidence).length} evaluations, ` +
      `${kept} images${bundle.omittedImages ? ` (${bundle.omittedImages} left out by the cap)` : ''}\n`,
  );
  return 0;
}
