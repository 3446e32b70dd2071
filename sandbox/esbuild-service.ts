// esbuild runs as one long-lived service process per host. It exits on its own when the host stops answering its
// pings (a main thread blocked by long synchronous work), and from then on every build fails with "The service is
// no longer running" — esbuild never starts it again by itself. A build here notices a dead or silent service,
// stops it (esbuild then starts a fresh one on the next call), and tries again; only a service that stays dead
// through every attempt is an error, and that error is infrastructure (ToolchainError), never a compile issue.
import * as esbuild from 'esbuild';
import { ToolchainError } from './toolchain-error.ts';

/** Tries after the first, each on a freshly started service. */
export const SERVICE_RETRIES = 2;

/**
 * A build normally takes milliseconds; one that has not answered in this long is waiting on a service that will
 * never answer (esbuild's stop() strands builds in flight). A late answer after a restart only costs a rebuild.
 */
export const DEFAULT_BUILD_TIMEOUT_MS = 60_000;

/** Raised by our own watchdog, or when a restart abandons a build in flight. */
class ServiceSilent extends Error {}

/** Builds in flight, by how to abandon them: a restart fails them at once so they retry on the new service. */
const inFlight = new Set<(err: Error) => void>();
/** Counts restarts, so builds that failed together restart the service once, not once each. */
let generation = 0;

/** esbuild's own words for a service that is gone (esbuild/lib/main.js, createChannel and afterClose). */
export function isServiceFailure(err: unknown): boolean {
  if (err instanceof ServiceSilent) return true;
  const e = err as { message?: unknown; errors?: unknown } | undefined;
  // A BuildFailure carries `errors` (the program's problems); a dead channel is a plain Error.
  if (!e || typeof e.message !== 'string' || (Array.isArray(e.errors) && e.errors.length > 0)) return false;
  return /^The service (is no longer running|was stopped)/.test(e.message);
}

/** Stops the service (the next build starts a fresh one) and sends every build in flight to retry. */
export async function restartService(reason: string): Promise<void> {
  generation++;
  const abandoned = [...inFlight];
  inFlight.clear();
  for (const fail of abandoned) fail(new ServiceSilent(`esbuild restarted: ${reason}`));
  await esbuild.stop();
}

/** esbuild's own constraint on build options (no keys it does not know), which it does not export. */
type Exact<T extends esbuild.BuildOptions> = T & { [K in Exclude<keyof T, keyof esbuild.BuildOptions>]: never };

function buildOnce<T extends esbuild.BuildOptions>(options: Exact<T>, timeoutMs: number): Promise<esbuild.BuildResult<T>> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      inFlight.delete(abandon);
      fn();
    };
    const abandon = (err: Error) => settle(() => reject(err));
    const timer = setTimeout(() => abandon(new ServiceSilent(`esbuild did not answer within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
    inFlight.add(abandon);
    esbuild.build(options).then(
      (r) => settle(() => resolve(r)),
      (err) => settle(() => reject(err)),
    );
  });
}

/** esbuild.build, on a live service: restarts a dead or silent one and tries again, up to SERVICE_RETRIES times. */
export async function buildOnLiveService<T extends esbuild.BuildOptions>(options: Exact<T>, timeoutMs = DEFAULT_BUILD_TIMEOUT_MS): Promise<esbuild.BuildResult<T>> {
  for (let attempt = 0; ; ) {
    const startedOn = generation;
    try {
      return await buildOnce(options, timeoutMs);
    } catch (err) {
      if (!isServiceFailure(err)) throw err;
      // Another build already restarted the service this one was on: try again on the new one.
      if (startedOn !== generation) continue;
      const why = (err as Error).message;
      await restartService(why);
      if (++attempt > SERVICE_RETRIES) {
        throw new ToolchainError('esbuild', `the esbuild service failed ${attempt} times, restarted each time (${why})`, { cause: err });
      }
    }
  }
}
