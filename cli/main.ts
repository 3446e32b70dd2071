// Dispatches `automemo <command>`. Usage problems exit 2 (in one line, with a pointer to the command's --help when it
// helps); problems in a benchmark's own files (ContentError) and anything unexpected exit 1 with their message (and
// the stack when AUTOMEMO_DEBUG is set).
import { didYouMean } from '../foundation/closest.ts';
import { redactCredentials } from '../foundation/redact.ts';
import { ContentError, UsageError } from './args.ts';
import { toStdout, toStderr } from './terminal.ts';

interface Command {
  usage: string;
  run(argv: string[]): Promise<number>;
}

const COMMANDS: Record<string, () => Promise<Command>> = {
  check: () => import('./commands/check.ts'),
  eval: () => import('./commands/eval.ts'),
  baselines: () => import('./commands/baselines.ts'),
  search: () => import('./commands/search.ts'),
  study: () => import('./commands/study.ts'),
  demo: () => import('./commands/demo.ts'),
  export: () => import('./commands/export.ts'),
  view: () => import('./commands/view.ts'),
  report: () => import('./commands/report.ts'),
  worker: () => import('./commands/worker.ts'),
};

const USAGE = `automemo — search for agent memory designs

Usage: automemo <command> [options]

Commands:
  check <program>   quick-examine a memo program (imports, interface, update, retrieve, payload)
  eval              evaluate one memo program on an environment (update, then retrieve per task)
  baselines         evaluate the standard memory baselines side by side
  search            search for a better memory design (budget-aware UCB tree search)
  study             repeated searches, the floor, transfer and statistics in one folder (tables, figures)
  demo              run the offline demo and print where its report is
  export <run>      export a run's program as an npm package or MCP server, with its memory
  view <run>        follow a run in the browser: tree, scores, actions, code, diffs, outcomes
  report <run>      summarise a run as text, or as one self-contained HTML file (--html)
  worker            serve evaluation jobs from a Redis queue (searches on other machines)

Run "automemo <command> --help" for a command's options.`;

/** A stray rejection must never take the process (and its isolates) down silently. */
function reportStrayRejections(reason: unknown): void {
  toStderr(redactCredentials(`automemo: unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}\n`));
}

export async function main(argv: string[]): Promise<number> {
  // Once per process, however many commands it runs (tests run many in one: a listener each made Node warn).
  if (!process.listeners('unhandledRejection').includes(reportStrayRejections)) process.on('unhandledRejection', reportStrayRejections);
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    toStdout(`${USAGE}\n`);
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    // A near miss says what was meant; the whole usage follows only when nothing is near.
    const near = didYouMean(name.slice(0, 100), Object.keys(COMMANDS));
    toStderr(`automemo: unknown command "${name.slice(0, 100)}"${near}\n${near ? '' : `\n${USAGE}\n`}`);
    return 2;
  }
  // The running API, published for environment modules that import `automemo` with none beside them
  // (api/running.ts); loaded beside the command, which loads most of the API anyway.
  const [command] = await Promise.all([load(), import('../api/running.ts')]);
  if (rest.includes('--help') || rest.includes('-h')) {
    toStdout(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      // The message stays the last thing on the screen: a pointer to the options, not 40 lines of them after it.
      toStderr(`automemo ${name}: ${redactCredentials(err.message)}\n${err.showUsage ? `(automemo ${name} --help lists its options)\n` : ''}`);
      // A problem in the benchmark's own files is not a usage error: exit 1, as for any failure.
      return err instanceof ContentError ? 1 : 2;
    }
    toStderr(redactCredentials(`automemo ${name}: ${process.env.AUTOMEMO_DEBUG ? (err as Error).stack : (err as Error).message}\n`));
    return 1;
  }
}
