// How an export names the run's environment: without the paths a run records (a module's or a data file's place on
// the machine that ran it), which mean nothing where the package is installed and say where someone's files are.
import { basename } from 'node:path';
import type { RunInfo } from '../run-store/run-folder.ts';

/** A path-free label for texts: "vaults (module env.ts)", "data:team-notes.jsonl", "locomo", "visual:charts". */
export function envLabel(run: RunInfo): string {
  const s = run.envSource;
  if (s?.kind === 'module') return `${s.name} (module ${basename(s.path ?? s.spec)})`;
  if (s?.arg !== undefined && s.spec.startsWith(`${s.name}:`) && /[\\/]/.test(s.arg)) return `${s.name}:${basename(s.arg)}`;
  const spec = run.options.env;
  return /[\\/]/.test(spec) ? basename(spec) : spec;
}

/** The same as one name part for a package name: "vaults", "data-team-notes", "visual-charts". */
export function envId(run: RunInfo): string {
  const s = run.envSource;
  if (s?.kind === 'module') return s.name;
  return envLabel(run).replace(/\.(jsonl|json|ts|mts|js|mjs)$/, '').replace(/[:.]+/g, '-');
}
