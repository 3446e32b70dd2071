// Jobs run on this process's event loop, one evaluation's isolates beside the others': today's behaviour, and what
// a library call without workers gets. One outcome cache serves every job, so a deterministic agent's outcome for a
// payload it saw before is not computed again.
import type { Environment } from '../environment/contract.ts';
import { OutcomeCache } from '../evaluate/outcome-cache.ts';
import type { HostServices } from '../../sandbox/primitives/index.ts';
import type { TypecheckLimits } from '../../sandbox/typecheck-thread.ts';
import type { JobExecutor, RunHints } from './executor.ts';
import type { EnvRef, Job, JobOutput } from './job.ts';
import { runJob } from './run-job.ts';

/** The environment this process has open, named for the in-process executor, which never reopens it. */
export function localEnvRef(env: Environment): EnvRef {
  const name = env.info().name;
  return { source: { spec: name, kind: 'builtin', name }, openSeed: 0, hash: '0'.repeat(16) };
}

export class InProcessExecutor implements JobExecutor {
  readonly slots = 1;
  readonly where = 'in this process';

  constructor(
    private readonly env: Environment,
    private readonly services: HostServices,
    private readonly cache = new OutcomeCache(),
    private readonly o: { typecheckLimits?: TypecheckLimits } = {},
  ) {}

  run(job: Job, hints: RunHints): Promise<JobOutput> {
    const env = this.env;
    return runJob(
      job,
      {
        services: this.services,
        environment: async () => env,
        worker: `pid ${process.pid}`,
        outcomes: () => this.cache,
        ...(this.o.typecheckLimits ? { typecheckLimits: this.o.typecheckLimits } : {}),
        ...(hints.signal ? { signal: hints.signal } : {}),
        ...(hints.onProgress ? { onProgress: hints.onProgress } : {}),
      },
      hints.evidenceDir,
      // Here the program's files are where the job says: examined in place.
      true,
    );
  }

  async close(): Promise<void> {}
}
