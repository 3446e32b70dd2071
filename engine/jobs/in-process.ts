// Jobs run on this process's event loop, one evaluation's isolates beside the others': today's behaviour, and what
// a library call without workers gets. The search's outcome cache is shared, so a deterministic agent's outcome for
// a payload it saw before is not computed again.
import type { Environment } from '../environment/contract.ts';
import type { OutcomeCache } from '../evaluate/outcome-cache.ts';
import type { HostServices } from '../../sandbox/primitives/index.ts';
import type { JobExecutor, RunHints } from './executor.ts';
import type { EvalJob, JobOutput } from './job.ts';
import { runEvalJob } from './run-job.ts';

export class InProcessExecutor implements JobExecutor {
  readonly slots = 1;
  readonly where = 'in this process';

  constructor(
    private readonly env: Environment,
    private readonly services: HostServices,
    private readonly cache?: OutcomeCache,
  ) {}

  run(job: EvalJob, hints: RunHints): Promise<JobOutput> {
    const env = this.env;
    return runEvalJob(
      job,
      {
        services: this.services,
        environment: async () => env,
        worker: `pid ${process.pid}`,
        ...(this.cache ? { outcomeCache: this.cache } : {}),
        ...(hints.signal ? { signal: hints.signal } : {}),
      },
      hints.evidenceDir,
    );
  }

  async close(): Promise<void> {}
}
