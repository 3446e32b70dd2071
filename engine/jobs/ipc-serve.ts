// The serving side of a local worker process: jobs arrive over Node's IPC channel from the search process, one at a
// time, are checked and run here, and their evidence is written straight into the run folder (same machine).
import { automemoVersion } from '../../foundation/version.ts';
import { EnvironmentFailure } from '../environment/contract.ts';
import type { ProgressEvent } from '../evaluate/evaluate.ts';
import type { FromWorker, ToWorker } from './ipc-protocol.ts';
import { ToolchainError } from '../../sandbox/toolchain-error.ts';
import { JobSchema } from './job.ts';
import { throttleTasks } from './progress-throttle.ts';
import { type JobContext, JobRefused, runJob } from './run-job.ts';

/** Task progress crosses the IPC channel at most this often per job: each message is serialized, sent and checked. */
const PROGRESS_MS = 100;

/** A worker's note, sent to the search process that started it (its stderr is not the user's terminal). */
export function noteToParent(message: string): void {
  process.send?.({ type: 'note', message } satisfies FromWorker);
}

export function serveIpc(context: JobContext): Promise<void> {
  const send = (m: FromWorker) => process.send?.(m);
  return new Promise<void>((resolve) => {
    process.on('disconnect', () => resolve());
    process.on('message', (raw: ToWorker) => {
      void (async () => {
        const id = typeof raw?.id === 'number' ? raw.id : -1;
        const parsed = JobSchema.safeParse(raw?.job);
        if (raw?.type !== 'job' || !parsed.success || (raw.evidenceDir !== undefined && typeof raw.evidenceDir !== 'string')) {
          return send({ type: 'failed', id, message: 'a malformed job reached the worker', refused: true });
        }
        try {
          const onProgress = throttleTasks((event: ProgressEvent) => send({ type: 'progress', id, event }), PROGRESS_MS);
          send({ type: 'done', id, output: await runJob(parsed.data, { ...context, onProgress }, raw.evidenceDir) });
        } catch (err) {
          const environment = err instanceof EnvironmentFailure;
          send({ type: 'failed', id, message: (err as Error).message, refused: err instanceof JobRefused || err instanceof ToolchainError, ...(environment ? { environment } : {}) });
        }
      })();
    });
    send({ type: 'ready', version: automemoVersion() });
  });
}
