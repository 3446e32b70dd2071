// automemo as a library: the same search, evaluation, baselines and quick examination the CLI runs (the CLI is a
// thin layer over these), plus what a researcher writes against: defineEnvironment for a benchmark, defineMemo
// for a memo program. Functions that start sandboxes need Node's --no-node-snapshot flag on Node 20 (see host.ts).
export { DEFAULT_SEEDS, SCREEN_KEEP, search, type SearchOptions, type SearchResult, type SearchStart } from './search.ts';
export { evaluate, baselines, EvaluationFailed, type EvaluateOptions, type EvaluateResult, type BaselinesOptions, type BaselinesResult } from './evaluate.ts';
export { check, type CheckOptions } from './check.ts';
export { exportRun, type ExportRunOptions } from './export.ts';
export { registerEnvironment, listEnvironments, type EnvInput } from './environments.ts';
export { defineEnvironment, type EnvironmentDefinition, type LoadContext } from '../engine/environment/define.ts';
export type { EnvTask, TaskAgent, AgentRun, AgentStep, TaskImage, TaskRole, Verdict, TaskEnvironmentSpec } from '../engine/environment/task-spec.ts';
export { InfraError, type Environment, type EnvironmentInfo, type World, type TaskOutcome, type Trajectory, type Split, type SplitName } from '../engine/environment/contract.ts';
export type { Explanation, EvidenceRecord, Choice } from '../engine/environment/contract.ts';
export type { Edit, EditKind, ChildFailure } from '../engine/meta/types.ts';
export { describeFailure } from '../engine/meta/describe.ts';
export type { EnvSource } from '../engine/environment/registry.ts';
export type { SearchProgress } from '../engine/search/search.ts';
export type { SearchSummary } from '../engine/search/summary.ts';
export type { ValidationPlan } from '../engine/search/validation-sampler.ts';
export type { SplitSpec } from '../engine/environment/roles.ts';
export type { EvaluationResult, ProgressEvent, TaskRecord } from '../engine/evaluate/evaluate.ts';
export type { JournalEvent } from '../engine/search/journal-events.ts';
export { differingPart, editLabel, type EditLabel } from '../engine/meta/edit-label.ts';
export type { RunOptions } from '../engine/search/run-options.ts';
export type { QuickExamReport } from '../sandbox/quick-exam.ts';
export type { ResolvedModels, RoleModel } from '../foundation/llm/models.ts';
export { resolveModels } from '../foundation/llm/models.ts';
export { ContentError, UsageError } from '../foundation/usage-error.ts';
export { defineMemo, type MemoProgram, type MemoContext, type EpisodeRecorder, type PartialRecorder, type MemoryPayload, type Json } from '../memo-programs/contract.ts';
export { study, type StudyOptions, type StudyPhase, type StudyResult } from './study.ts';
export { DEFAULT_PROTOCOL, PROTOCOLS, protocolStatement, type Protocol } from '../engine/environment/protocol.ts';
export type { StudyFile } from '../engine/study/study-file.ts';
export type { StudyAnalysis } from '../engine/study/analysis.ts';
export { comparePaired, meanInterval, type PairedComparison, type MeanInterval } from '../engine/study/statistics.ts';
