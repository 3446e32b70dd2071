// The serving side of a local worker process: jobs arrive over Node's IPC channel from the search process, one at a
// time, are checked and run here, and their evidence is written straight into the run folder (same machine).
import { automemoVersion } from '../../foundation/version.ts';
import type { FromWorker, ToWorker } from './ipc-protocol.ts';
import { EvalJobSchema } from './job.ts';
import { type JobContext, JobRefused, runEvalJob } from './run-job.ts';

export function serveIpc(context: JobContext): Promise<void> {
  const send = (m: FromWorker) => process.send?.(m);
  return new Promise<void>((resolve) => {
    process.on('disconnect', () => resolve());
    process.on('message', (raw: ToWorker) => {
      void (async () => {
        const id = typeof raw?.id === 'number' ? raw.id : -1;
        const parsed = EvalJobSchema.safeParse(raw?.job);
        if (raw?.type !== 'job' || !parsed.success || typeof raw.evidenceDir !== 'string') {
          return send({ type: 'failed', id, message: 'a malformed job reached the worker', refused: true });
        }
        try {
          send({ type: 'done', id, output: await runEvalJob(parsed.data, context, raw.evidenceDir) });
        } catch (err) {
          send({ type: 'failed', id, message: (err as Error).message, refused: err instanceof JobRefused });
        }
      })();
    });
    send({ type: 'ready', version: automemoVersion() });
  });
}
