// Dispatches `automemo <command>`. Usage problems exit 2 with the command's usage; anything unexpected exits 1
// with its message (and the stack when AUTOMEMO_DEBUG is set).
import { redactCredentials } from '../foundation/redact.ts';
import { UsageError } from './args.ts';

interface Command {
  usage: string;
  run(argv: string[]): Promise<number>;
}

const COMMANDS: Record<string, () => Promise<Command>> = {
  check: () => import('./commands/check.ts'),
  eval: () => import('./commands/eval.ts'),
  baselines: () => import('./commands/baselines.ts'),
  search: () => import('./commands/search.ts'),
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
  demo              run the offline demo and print where its report is
  export <run>      export a run's program as an npm package or MCP server, with its memory
  view <run>        follow a run in the browser: tree, scores, actions, code, diffs, outcomes
  report <run>      summarise a run as text, or as one self-contained HTML file (--html)
  worker            serve evaluation jobs from a Redis queue (searches on other machines)

Run "automemo <command> --help" for a command's options.`;

export async function main(argv: string[]): Promise<number> {
  // A stray rejection must never take the process (and its isolates) down silently.
  process.on('unhandledRejection', (reason) => {
    process.stderr.write(redactCredentials(`automemo: unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}\n`));
  });
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(`automemo: unknown command "${name}"\n\n${USAGE}\n`);
    return 2;
  }
  const command = await load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`automemo ${name}: ${redactCredentials(err.message)}\n${err.showUsage ? `\n${command.usage}\n` : ''}`);
      return 2;
    }
    process.stderr.write(redactCredentials(`automemo ${name}: ${process.env.AUTOMEMO_DEBUG ? (err as Error).stack : (err as Error).message}\n`));
    return 1;
  }
}
