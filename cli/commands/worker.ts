// automemo worker --queue redis://host:port: serves evaluation jobs from Redis (BullMQ) until stopped. `--ipc` is
// how a search starts its local worker processes (--workers N); users do not call it.
import { z } from 'zod';
import { withHost } from '../../api/host.ts';
import { checkPathMapTargets, noteToParent, parseEnvRoot, parsePathMapping, serveIpc, serveQueue, workerContext } from '../../api/workers.ts';
import { resolveModels } from '../../foundation/llm/models.ts';
import { automemoVersion } from '../../foundation/version.ts';
import { intOption, parse, UsageError } from '../args.ts';
import { noteToStderr } from '../style.ts';
import { redactCredentials } from '../../foundation/redact.ts';
import { toStdout, toStderr } from '../terminal.ts';

export const usage = `automemo worker --queue redis://[:password@]host:port [options]

Serves evaluation jobs that searches (and eval, baselines) started with the same
--queue put on Redis. Run one per core on each machine; every worker needs the
same automemo (code and dependencies), the same environment modules and data
(at the same paths, or mapped with --path-map), and the same AUTOMEMO_* model
settings as the search: a worker that differs refuses the job, and the search
stops saying which and why.

Options:
  --queue URL         redis://host:port, redis://:password@host:port/db, or
                      rediss://… for TLS. Never expose Redis without a password
                      (requirepass) and, across networks, TLS.
  --concurrency C     jobs this process runs at once (default 1)
  --env-root DIR      an absolute folder whose environment modules and data
                      this worker opens (repeatable; never / ). Without it,
                      only the built-in environments (and their default
                      data): a job naming any other file is refused unread,
                      since anyone who reaches Redis can put a job on the queue
  --path-map FROM=TO  the search's environment modules and data under the
                      absolute folder FROM are under TO on this machine
                      (repeatable; the environment is still checked against the
                      search's content hash; TO must be under an --env-root,
                      or the worker refuses to start)
  --lock-ms MS        a job's lock; a worker that dies loses its job to another
                      after about this long (default 30000, or 30000 per
                      concurrent job). A program's call holds the worker's
                      thread for up to its CPU limit (10 s) and renewals wait
                      behind it: keep the lock well above that, or a busy
                      worker loses its job and the job fails as its program's`;

/** An option's value checked by `parse`: its problem is a usage error (printed with the usage). */
function asArgument<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** How long a stopping worker waits for its job and Redis before it leaves anyway. */
const CLOSE_WAIT_MS = 10_000;

const Args = z.object({
  positionals: z.array(z.string()).max(0, 'worker takes no positional arguments'),
  queue: z.string().optional(),
  ipc: z.boolean().optional(),
  concurrency: intOption(1, 64),
  'lock-ms': intOption(1000, 3_600_000),
  'path-map': z.array(z.string().max(8192)).max(32, 'at most 32 --path-map options').optional(),
  'env-root': z.array(z.string().max(8192)).max(32, 'at most 32 --env-root options').optional(),
});

export async function run(argv: string[]): Promise<number> {
  const a = parse(
    argv,
    { queue: { type: 'string' }, ipc: { type: 'boolean' }, concurrency: { type: 'string' }, 'lock-ms': { type: 'string' }, 'path-map': { type: 'string', multiple: true }, 'env-root': { type: 'string', multiple: true } },
    Args,
  );
  if (!a.queue && !a.ipc) throw new UsageError('give --queue redis://host:port');
  const pathMap = (a['path-map'] ?? []).map((m) => asArgument(() => parsePathMapping(m)));
  const roots = (a['env-root'] ?? []).map((r) => asArgument(() => parseEnvRoot(r)));
  // Behind a queue, a mapping's target must be where this worker opens anything (a local worker has no roots).
  if (!a.ipc) asArgument(() => checkPathMapTargets(pathMap, roots));
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
      ...(a['lock-ms'] ? { lockMs: a['lock-ms'] } : {}),
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
