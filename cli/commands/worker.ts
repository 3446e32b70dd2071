// automemo worker --queue redis://host:port: serves evaluation jobs from Redis (BullMQ) until stopped. `--ipc` is
// how a search starts its local worker processes (--workers N); users do not call it.
import { withHost } from '../../api/host.ts';
import { checkPathMapTargets, noteToParent, serveIpc, serveQueue, workerContext } from '../../api/workers.ts';
import { commandHelp } from '../../api/options/derive.ts';
import { resolveModels } from '../../foundation/llm/models.ts';
import { automemoVersion } from '../../foundation/version.ts';
import { noPositionals, parse, UsageError } from '../args.ts';
import { noteToStderr } from '../style.ts';
import { redactCredentials } from '../../foundation/redact.ts';
import { toStdout, toStderr } from '../terminal.ts';

export const usage = commandHelp(
  'worker',
  `automemo worker --queue redis://[:password@]host:port [options]

Serves evaluation jobs that searches (and eval, baselines) started with the same
--queue put on Redis. Run one per core on each machine; every worker needs the
same automemo (code and dependencies), the same environment modules and data
(at the same paths, or mapped with --path-map), and the same AUTOMEMO_* model
settings as the search: a worker that differs refuses the job, and the search
stops saying which and why.`,
);

/** How long a stopping worker waits for its job and Redis before it leaves anyway. */
const CLOSE_WAIT_MS = 10_000;

export async function run(argv: string[]): Promise<number> {
  const a = parse('worker', argv, { positionals: noPositionals('worker') });
  if (!a.queue && !a.ipc) throw new UsageError('give --queue redis://host:port');
  const pathMap = a.pathMap ?? [];
  const roots = a.roots ?? [];
  // Behind a queue, a mapping's target must be where this worker opens anything (a local worker has no roots).
  if (!a.ipc) {
    try {
      checkPathMapTargets(pathMap, roots);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  const models = resolveModels();
  return withHost(models, async (services) => {
    // A local worker (--ipc) serves the search that started it; one behind a queue serves anyone who reaches Redis.
    // A local worker's notes go to the search that started it, which prints them (its stderr is not the terminal).
    const context = workerContext(models, services, a.ipc ? noteToParent : noteToStderr, { pathMap, ...(a.ipc ? {} : { roots }) });
    if (a.ipc) {
      await serveIpc(context);
      return 0;
    }
    const served = await serveQueue({
      url: a.queue as string,
      ...(a.concurrency ? { concurrency: a.concurrency } : {}),
      ...(a.lockMs ? { lockMs: a.lockMs } : {}),
      context,
      onJob: (e) => toStdout(redactCredentials(`${new Date().toISOString()} ${e.phase} ${e.key}${e.message ? `: ${e.message.split('\n')[0]}` : ''}\n`)),
    }).catch((err: Error) => {
      throw new UsageError(err.message);
    });
    toStdout(`automemo worker ${context.worker}: automemo ${automemoVersion()}, serving ${served.shown}\n`);
    await new Promise<void>((resolve) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
    });
    // The job in flight finishes (or its lock lapses and another worker takes it); a Redis that went away must not
    // keep the process: the close is given a while, and a second signal leaves at once.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
    toStdout(`automemo worker ${context.worker}: stopping\n`);
    const closed = await Promise.race([served.close().then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), CLOSE_WAIT_MS).unref())]);
    if (!closed) toStderr(`automemo worker: Redis did not answer within ${CLOSE_WAIT_MS / 1000} s; leaving without it\n`);
    return 0;
  });
}
