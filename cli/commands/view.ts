// automemo view: a web page on 127.0.0.1 that follows a run folder live — the tree, score over steps, the action
// log, per-node code, diffs, the meta agent's feedback and per-task outcomes (viewer/).
import { z } from 'zod';
import { isStudyFolder, readRunInfo, StudyServer, ViewServer } from '../../api/runs.ts';
import { commandHelp } from '../../api/options/derive.ts';
import { parse } from '../args.ts';
import { bold, noteToStderr } from '../style.ts';
import { runEnvironmentNote } from '../../api/environments.ts';
import { toStdout } from '../terminal.ts';

export const usage = commandHelp(
  'view',
  `automemo view <run-folder | study-folder> [--port N]

Serves a page on 127.0.0.1 that shows a search run and follows it while it runs:
the tree (size by evaluations, colour by mean score, confidence interval on
hover, the LCB winner, failed generations), score over steps, the action log
with the competing scores, and per node its code, diff against its parent, the
meta agent's feedback and per-task outcomes; any two nodes side by side.
A study folder (automemo study) shows the study's tables and figures, each
search linked to its run's own viewer.`,
);

export async function run(argv: string[]): Promise<number> {
  const positionals = z.array(z.string()).length(1, 'give the run folder: automemo view <run-folder>');
  const a = parse('view', argv, { positionals });
  const dir = a.positionals[0] as string;
  if (isStudyFolder(dir)) return viewStudy(dir, a.port ?? 0);
  // Not a run folder is the user's mistake, but not a usage one: the message names the problem, exit 1.
  const info = readRunInfo(dir);
  const server = new ViewServer(dir);
  const url = await server.listen(a.port ?? 0);
  toStdout(`${bold('automemo view')} — run ${dir} (env ${info.options.env}, budget ${info.options.budget})\n${url}\nFollowing the run live; Ctrl-C to stop.\n`);
  const changed = await runEnvironmentNote(dir, info.envSource);
  if (changed) noteToStderr(changed);
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolve());
  });
  await server.close();
  return 0;
}

async function viewStudy(dir: string, port: number): Promise<number> {
  const server = new StudyServer(dir);
  const url = await server.listen(port);
  toStdout(`${bold('automemo view')} — study ${dir} (${server.runViewers.size} search runs, each with its own viewer)\n${url}\nCtrl-C to stop.\n`);
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolve());
  });
  await server.close();
  return 0;
}
