// What `import … from 'automemo'` gives an environment module that has no automemo of its own beside it: the
// automemo running the module, the very same instance (its classes, its registry), not a second copy loaded anew.
// engine/environment/module-hooks.mjs resolves to this file; api/running.ts puts the running API where it reads it.
// The names are those of api/index.ts (test/api/entry.test.ts checks they match).
const api = globalThis[Symbol.for('automemo.running-api')];
if (!api) throw new Error('automemo is not running in this process: import automemo itself, or install it beside your module');

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
  DEFAULT_SEEDS,
  SCREEN_KEEP,
  study,
  DEFAULT_PROTOCOL,
  PROTOCOLS,
  protocolStatement,
  comparePaired,
  meanInterval,
} = api;
