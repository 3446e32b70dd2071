// automemo's library entry for plain JavaScript (and TypeScript through tsx or a bundler): automemo is written in
// TypeScript and loads through tsx, registered here, so `import { search } from 'automemo'` works on Node 20
// without a build step. The names are listed once more below; test/api/entry.test.ts checks they match api/index.ts.
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// One automemo per process: a second copy (another install, imported by a package or a script) would load its own
// native sandbox beside the running one's, which aborts the process (an isolated-vm assertion, exit 134). Stop
// before loading anything, naming both copies.
const here = realpathSync(dirname(fileURLToPath(import.meta.url)));
const running = globalThis[Symbol.for('automemo.running-copy')];
if (running && running.root !== here) {
  const version = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8')).version;
  throw new Error(
    `two copies of automemo in one process: ${running.root} (${running.version}) is running, and ${here} (${version}) ` +
      'was imported too; each loads its own native sandbox (isolated-vm), and two abort the process. Import automemo ' +
      `from one place: run the copy your code imports (node ${join(here, 'bin', 'automemo.js')} …), or remove the other`,
  );
}

register();
const api = await import('./api/index.ts');
// Published for environment modules that import `automemo` with none beside them (api/running-automemo.js).
await import('./api/running.ts');

export const {
  search,
  evaluate,
  baselines,
  EvaluationFailed,
  check,
  exportRun,
  registerEnvironment,
  listEnvironments,
  defineEnvironment,
  InfraError,
  resolveModels,
  UsageError,
  ContentError,
  defineMemo,
  describeFailure,
  differingPart,
  editLabel,
  study,
  protocolStatement,
  comparePaired,
  meanInterval,
} = api;
