// Received run folders run no code unless the user says so. `--resume` and `export` open the environment a run
// recorded: a built-in's is automemo's own code, but a module (or the copy of it inside the run folder) is whatever
// the run names. A run this user's automemo made carries this user's mark (run-store/run-trust.ts) and opens as it
// is; any other run is refused before anything is imported, unless the user passes --trust-run (trustRun: true).
import type { EnvSource } from '../engine/environment/registry.ts';
import { parseEnvSpec } from '../engine/environment/env-spec.ts';
import { UsageError } from '../foundation/usage-error.ts';
import { runMarkProblem } from '../run-store/run-trust.ts';
import { environments } from './environments.ts';

/** The module a run's environment would import when reopened, or undefined when it is a registered definition. */
function codeOf(recorded: EnvSource | undefined, spec: string): string | undefined {
  if (recorded) return recorded.kind === 'module' ? (recorded.path ?? recorded.spec) : undefined;
  try {
    return parseEnvSpec(spec, (n) => environments.has(n)).kind === 'name' ? undefined : spec;
  } catch {
    return spec;
  }
}

/**
 * Refuses to go on when `action` ("resuming it", "exporting it") would run environment code a run names and the run
 * is not this user's, unless `trust`; with `trust`, says whose code runs. Before anything is imported.
 */
export function checkRunTrust(dir: string, recorded: EnvSource | undefined, spec: string, trust: boolean | undefined, action: string, onNote: (m: string) => void): void {
  const code = codeOf(recorded, spec);
  if (code === undefined) return;
  const problem = runMarkProblem(dir);
  if (!problem) return;
  const what = `the environment module ${code.slice(0, 500)} this run names (or the copy of it inside the run folder)`;
  if (trust) {
    onNote(`${dir} ${problem}; running ${what}, as --trust-run asks`);
    return;
  }
  throw new UsageError(`${dir} ${problem}: ${action} would run ${what}, code from whoever made the run. If you trust them, give --trust-run (library: trustRun: true)`, { showUsage: false });
}
