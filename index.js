// automemo's library entry for plain JavaScript (and TypeScript through tsx or a bundler): automemo is written in
// TypeScript and loads through tsx, registered here, so `import { search } from 'automemo'` works on Node 20
// without a build step. The names are listed once more below; test/api/entry.test.ts checks they match api/index.ts.
import { register } from 'tsx/esm/api';

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
  study,
  protocolStatement,
  comparePaired,
  meanInterval,
} = api;
