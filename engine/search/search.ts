// The budget-aware tree search. Step 0 evaluates the no-memory root and the seed programs (the seeds enter as
// evaluated children of the root); each later step takes the policy's action — re-evaluate a program, or have the
// meta agent write a child of one, quick-examine it (with up to `repairAttempts` repairs) and evaluate it. A child
// that never passes spends the step but no evaluation. After the budget, the selected program (best lower
// confidence bound) is evaluated on the held-out test split beside the root and the seeds.
// Everything is journaled as it happens; a resumed run replays the journal and carries on from the first step
// that has no `step-done` line.
import { join, relative } from 'node:path';
import type { Environment } from '../environment/contract.ts';
import { taskHash } from '../environment/roles.ts';
import { readProgramFiles, sourceHash } from '../../memo-programs/files.ts';
import { resolveProgram } from '../../memo-programs/registry.ts';
import { seededRandom } from '../random.ts';
import { compileProgram, type CompiledProgram, formatIssue } from '../../sandbox/compile.ts';
import { ToolchainError } from '../../sandbox/toolchain-error.ts';
import type { HostServices } from '../../sandbox/primitives/index.ts';
import type { QuickExamReport } from '../../sandbox/quick-exam.ts';
import { examineByJob, examJob } from '../jobs/exam-job.ts';
import { Journal, type JournalEvent, type NewEvent, readJournal } from '../../search-trees/journal.ts';
import { replay } from '../../search-trees/replay.ts';
import type { ClusterPool } from '../meta/clue/pool.ts';
import type { RunFolder, RunOptions } from '../../search-trees/run-folder.ts';
import type { EvaluationResult } from '../evaluate/evaluate.ts';
import { renderSteps } from '../meta/evidence.ts';
import { crossoverDonors } from './crossover-donors.ts';
import { readEvidenceLines, SUMMARY_MAX_BYTES, TaskEvidenceSchema } from '../evaluate/evidence.ts';
import { evalJob, evaluateByJob } from '../jobs/evaluate-job.ts';
import type { JobExecutor } from '../jobs/executor.ts';
import { InProcessExecutor, localEnvRef } from '../jobs/in-process.ts';
import { type EnvRef, jobKey } from '../jobs/job.ts';
import { createHash } from 'node:crypto';
import { readSmallFile } from '../../foundation/small-file.ts';
import { CostLedger, priceOf } from '../llm/ledger.ts';
import type { ResolvedModels } from '../llm/models.ts';
import { type Edit, type EditOutcome, type MetaAgent, MetaAgentError, type ParentContext, type ProgramFiles, type Proposal } from '../meta/types.ts';
import { POLICIES } from './policies/index.ts';
import { setAsideEvidence } from '../evaluate/evidence-aside.ts';
import { seedNodeIds } from './node-ids.ts';
import { evidenceImages, type TaskImages } from '../meta/evidence-images.ts';
import { inspirationsFor, type MemoryMaterial, memoryMaterial, rolesLine, triedFrom } from './meta-context.ts';
import { evalSample } from '../evaluate/task-sample.ts';
import { runStepPool } from './step-pool.ts';
import type { Choice } from './policy.ts';
import { selectFinal, selectionScore } from './selection.ts';
import { recordEvaluation, type SearchTree, type TreeNode } from './tree.ts';
import { lcb } from './ucb.ts';
import { MAX_UNSCORED_IN_A_ROW, retryChoice, unscoredReason, unscoredStopReason } from './unscored.ts';

class BudgetExceeded extends Error {}

export interface SearchDeps {
  env: Environment;
  services: HostServices;
  meta: MetaAgent;
  folder: RunFolder;
  options: RunOptions;
  models: ResolvedModels;
  ledger: CostLedger;
  onEvent?: (event: JournalEvent, state: SearchState) => void;
  /** Stops the search cleanly: the step in flight is abandoned (its resume redoes it), the journal says so. */
  signal?: AbortSignal;
  /** Called before each step; throwing stops the run (tests use it to simulate a kill). */
  beforeStep?: (step: number) => void;
  /** Where evaluations run, and the environment as workers open it (default: this process). */
  jobs?: { executor: JobExecutor; env: EnvRef };
}

export interface SearchState {
  tree: SearchTree;
  /** Model spend so far (meta agent, executor, memo model). */
  ledger: CostLedger;
  step: number;
  startedAt: number;
  stepTimes: number[];
  /** CluE's cluster pool, carried across steps (and across a resume, from the journal). */
  cluePool: ClusterPool;
}

export interface SearchSummary {
  steps: number;
  generations: number;
  reEvaluations: number;
  validGenerations: number;
  failedGenerations: number;
  /** Children not evaluated because they would have changed nothing (same program, or the parent's payloads). */
  noOps: number;
  fullEvaluations: number;
  winner: { id: string; validation: number; evaluations: number; lcb: number; test?: number };
  root: { validation: number; test?: number };
  seeds: { id: string; validation: number; test?: number }[];
  stopped?: string;
  /** The infrastructure failure that stopped the search (a resume carries on once it is fixed). */
  failure?: string;
  /** Stopped by its AbortSignal (Ctrl-C on the CLI): the final choice and test were not made; a resume carries on. */
  interrupted?: boolean;
  /** Evaluations that scored nothing (infrastructure failed every task); they count in no score. */
  unscored: number;
  usd: number;
  tokens: number;
}

export async function runSearch(deps: SearchDeps): Promise<SearchSummary> {
  const { folder, options } = deps;
  const read = readJournal(folder.journalPath);
  const past = replay(read.events);
  const journal = new Journal(folder.journalPath);
  const state: SearchState = { tree: past.tree, ledger: deps.ledger, step: past.completedSteps, startedAt: Date.now(), stepTimes: [], cluePool: past.cluePool };
  for (const call of past.metaCalls) deps.ledger.add({ role: call.role, node: call.node, promptTokens: call.promptTokens, ...(call.cachedTokens !== undefined ? { cachedTokens: call.cachedTokens } : {}), completionTokens: call.completionTokens, usd: call.usd });
  const log = (event: NewEvent) => {
    const full = journal.append(event);
    deps.onEvent?.(full, state);
    return full;
  };
  // The kind of action each completed step took (for the summary).
  const stepActions = new Map(past.actions.map((a) => [a.step, a.kind]));
  const compiled = new Map<string, CompiledProgram>();
  const lastEval = new Map<string, EvaluationResult>();
  const executor = deps.jobs?.executor ?? new InProcessExecutor(deps.env, deps.services);
  const envRef: EnvRef = deps.jobs?.env ?? localEnvRef(deps.env);
  // Job keys name this run (its folder and creation time): a queue shared by several runs keeps them apart.
  const runId = createHash('sha256').update(`${folder.dir}\0${createdAt(folder)}`).digest('hex').slice(0, 12);
  // Validation evaluations that scored nothing, in a row (this session); MAX_UNSCORED_IN_A_ROW stop the search.
  let unscoredInARow = 0;
  let lastUnscored = '';
  log({ type: 'start', resumed: read.events.length > 0, pid: process.pid });
  const policy = POLICIES[options.policy];
  if (!policy) throw new Error(`unknown search policy ${options.policy}`);

  // Validation evaluation k of a node uses task sample k. Indices are claimed when an evaluation starts, so two
  // evaluations of one node in flight (parallel search) never share one; an unscored one frees its index again.
  const scoredIndices = new Map<string, Set<number>>();
  for (const e of past.evaluations) if (e.split === 'train' && e.score !== null) scoredIndices.set(e.node, (scoredIndices.get(e.node) ?? new Set()).add(e.index));
  const runningIndices = new Map<string, Set<number>>();
  /** Payload digests on the quick-examination tasks, per node, for telling a no-op child. */
  const examined = new Map<string, Promise<string[] | undefined>>();
  const sources = new Map<string, string>();
  /** The validation tasks, for each evaluation's sample. */
  let validationIds: Promise<string[]> | undefined;
  /** What the memory is built from: read once per search, for every meta prompt. */
  let material: Promise<MemoryMaterial> | undefined;
  const claimIndex = (id: string): number => {
    const scored = scoredIndices.get(id);
    const running = runningIndices.get(id) ?? new Set<number>();
    let k = 0;
    while (scored?.has(k) || running.has(k)) k++;
    runningIndices.set(id, running.add(k));
    return k;
  };
  const releaseIndex = (id: string, k: number, scored: boolean) => {
    runningIndices.get(id)?.delete(k);
    if (scored) scoredIndices.set(id, (scoredIndices.get(id) ?? new Set()).add(k));
  };

  /** A quick examination of the files in `dir` (the run folder's copy), wherever jobs run. */
  const examine = (files: ProgramFiles, dir: string): Promise<QuickExamReport> =>
    examineByJob(
      executor,
      examJob({ key: `${runId}/exam/${relative(folder.dir, dir)}/${sourceHash(files).slice(0, 16)}`, files, dir, env: envRef, tasks: options.quickExamTasks, seed: options.seed }),
      deps.signal,
    );

  const compileNode = async (node: TreeNode): Promise<CompiledProgram> => {
    let c = compiled.get(node.id);
    if (!c) {
      const r = await compileProgram({ entryPath: join(folder.dir, node.dir, 'index.ts') });
      if (!r.ok) throw new Error(`program ${node.id} no longer compiles: ${r.issues.map(formatIssue).join('; ')}`);
      c = r.program;
      compiled.set(node.id, c);
    }
    return c;
  };

  const evaluate = async (node: TreeNode, split: 'train' | 'test', step: number): Promise<EvaluationResult> => {
    const program = await compileNode(node);
    const index = split === 'train' ? claimIndex(node.id) : 0;
    // Paired evaluation: every node's k-th evaluation uses the same task sample k, so a child's first score
    // compares with its parent's first score on identical tasks (an edit with no effect scores exactly the same).
    const sampleSeed = Math.floor(taskHash(options.seed, `${split}/${index}`) * 2 ** 31);
    const fraction = split === 'train' ? options.evalFraction : 1;
    validationIds ??= deps.env.worlds('train').then((ws) => ws.flatMap((w) => w.tasks.map((t) => t.taskId)));
    const taskFilter = fraction < 1 ? evalSample(await validationIds, sampleSeed, fraction, options.minEvalTasks) : undefined;
    const dir = folder.evidenceDir(node.id, split, index);
    // Already there: an evaluation no finished step recorded left it; this one starts on a clean folder.
    setAsideEvidence(dir, 'interrupted');
    const started = Date.now();
    const job = evalJob({
      key: jobKey(runId, node.id, split, index, program.hash),
      program,
      env: envRef,
      split,
      seed: options.seed,
      ...(taskFilter ? { taskIds: (await validationIds).filter(taskFilter) } : {}),
    });
    const result = await evaluateByJob(executor, job, { evidenceDir: dir, ...(deps.signal ? { signal: deps.signal } : {}) }, deps.env, deps.services.images);
    chargeAgents(result, node.id, deps);
    // An evaluation that scored nothing is kept apart: it changes no mean and no count, its evidence moves aside
    // (the index stays free for the evaluation that will score it), and it counts toward the unscored streak.
    const unscored = unscoredReason(result);
    const evidenceDir = unscored ? setAsideEvidence(dir, 'unscored') : dir;
    if (split === 'train') {
      if (!unscored) lastEval.set(node.id, result);
      unscoredInARow = unscored ? unscoredInARow + 1 : 0;
      if (unscored) lastUnscored = unscored;
    }
    const score = unscored ? null : result.score;
    recordEvaluation(node, { step, split, score, ...(unscored ? { unscored } : {}) });
    if (split === 'train') releaseIndex(node.id, index, score !== null);
    const { usage: _usage, byScenario, ...stats } = result.stats;
    log({
      type: 'evaluation',
      step,
      node: node.id,
      split,
      index,
      score,
      ...(unscored ? { unscored } : {}),
      tasks: result.tasks.length,
      ...(taskFilter ? { sampleSeed } : {}),
      evidence: relative(folder.dir, evidenceDir),
      stats: { ...stats, byScenario },
      ms: Date.now() - started,
    });
    return result;
  };

  const addNode = (node: TreeNode, step: number) => {
    state.tree.add(node);
    log({
      type: 'node',
      step,
      id: node.id,
      parent: node.parent,
      kind: node.kind,
      dir: node.dir,
      hash: node.hash,
      parentSnapshot: node.parentSnapshot,
      ...(node.description ? { description: node.description } : {}),
      ...(node.edits?.length ? { edits: node.edits } : {}),
    });
  };

  const programNode = async (id: string, files: ProgramFiles, parent: string | null, kind: TreeNode['kind'], step: number, description?: string, edits?: Edit[]) => {
    folder.writeProgram(id, files);
    const node: TreeNode = {
      id,
      parent,
      kind,
      dir: relative(folder.dir, folder.programDir(id)),
      hash: '',
      step,
      parentSnapshot: parent ? state.tree.q(state.tree.get(parent)) : null,
      scores: [],
      ...(description ? { description } : {}),
      ...(edits?.length ? { edits } : {}),
    };
    node.hash = (await compileNode(node)).hash;
    return node;
  };

  // Step 0: the root and the seeds.
  async function initStep(): Promise<void> {
    const root = await programNode('root', readProgramFiles(resolveProgram('no-memory').path), null, 'root', 0, 'no memory');
    addNode(root, 0);
    await evaluate(root, 'train', 0);
    // A seed's id is a safe name made from it (a seed may be a path): ids name folders of the run.
    const seedIds = seedNodeIds(options.seeds);
    for (const [i, seed] of options.seeds.entries()) {
      const files = readProgramFiles(resolveProgram(seed).path);
      const node = await programNode(seedIds[i] as string, files, 'root', 'seed', 0, `seed program ${seed}`);
      addNode(node, 0);
      await evaluate(node, 'train', 0);
    }
  }

  // A stop for the budget stays; a stop for infrastructure does not: a resume is the user trying again.
  let stopped: string | undefined = carriedStop(read.events);
  let failure: string | undefined;
  let interrupted = false;
  let stopRecorded = false;
  const stop = (step: number, reason: string, infrastructure: boolean) => {
    // Steps in flight that meet the same cap (or dead service) stop the search once; the first reason stands.
    if (stopRecorded) return;
    stopRecorded = true;
    stopped = reason;
    if (infrastructure) failure = reason;
    log({ type: 'stopped', step, reason, ...(infrastructure ? { infrastructure } : {}) });
  };
  const interrupt = (step: number) => {
    // Several steps in flight all see the signal: the stop is journaled once.
    if (interrupted) return;
    interrupted = true;
    stopped = `interrupted at step ${step}: ${abortReason(deps.signal)}`;
    log({ type: 'stopped', step, reason: stopped, interrupted: true });
  };
  /** Runs a step's work: true when it finished; a spending cap or a dead toolchain stops the search instead. */
  const runStep = async (step: number, work: () => Promise<void>): Promise<boolean> => {
    try {
      if (deps.signal?.aborted) throw deps.signal.reason;
      await work();
      return true;
    } catch (err) {
      if (deps.signal?.aborted) interrupt(step);
      else if (err instanceof BudgetExceeded) stop(step, err.message, false);
      else if (err instanceof ToolchainError) stop(step, `step ${step} could not finish: ${err.message}`, true);
      else throw err;
      return false;
    }
  };
  const stopOnUnscoredStreak = (step: number) => {
    if (!stopped && unscoredInARow >= MAX_UNSCORED_IN_A_ROW) stop(step, unscoredStopReason(unscoredInARow, lastUnscored), true);
  };

  if (!past.initDone && (await runStep(0, initStep))) {
    log({ type: 'step-done', step: 0 });
    stopOnUnscoredStreak(0);
  }

  // Steps 1..budget: every step without a `step-done` line (after a kill with several in flight, the gaps too), up
  // to `parallel` at once. A step picks its action as it starts, with the work in flight reserved in the tree.
  let ranSteps = 0;
  const todo = Array.from({ length: Math.max(0, options.budget) }, (_, i) => i + 1).filter((s) => !past.doneSteps.includes(s));
  await runStepPool({
    steps: todo,
    parallel: options.parallel ?? 1,
    stopped: () => stopped !== undefined,
    ...(deps.beforeStep ? { beforeStep: deps.beforeStep } : {}),
    run: async (step) => {
      if (deps.signal?.aborted) {
        if (!stopped) interrupt(step);
        return;
      }
      const stepStarted = Date.now();
      state.step = Math.max(state.step, step);
      // A node owed a first score (its evaluations so far scored nothing) is evaluated before the policy chooses.
      const retry = retryChoice(state.tree);
      const choice: Choice = retry ?? policy.choose(state.tree, options.ucb, seededRandom(options.seed, 'policy', step));
      log({ type: 'action', step, kind: choice.action.kind, node: choice.action.node, score: choice.action.score, candidates: choice.candidates, ...(retry ? { retry: retry.retry } : {}) });
      const release = state.tree.reserve(choice.action.kind, choice.action.node);
      const done = await runStep(step, async () => {
        checkBudget(deps.ledger, options.maxUsd);
        if (choice.action.kind === 'evaluate') {
          await evaluate(state.tree.get(choice.action.node), 'train', step);
        } else {
          // A child that changes nothing costs no evaluation: the agent, told of it, tries again within the step.
          for (let again = 0; again < MAX_NO_OP_TRIES; again++) if ((await generate(choice.action.node, step, again)) !== 'no-op') break;
        }
      }).finally(release);
      if (done) {
        log({ type: 'step-done', step });
        stepActions.set(step, choice.action.kind);
        stopOnUnscoredStreak(step);
      }
      state.stepTimes.push(Date.now() - stepStarted);
      ranSteps++;
    },
  });

  /** One child of the parent: a node, a failed generation, or a no-op (then said so, for another try). */
  async function generate(parentId: string, step: number, again: number): Promise<'done' | 'no-op'> {
    const parent = state.tree.get(parentId);
    const ctx = await parentContext(parent, step);
    const childId = `n${step}`;
    // A try after a no-op writes beside it, so the journal's no-op keeps its own files.
    const base = again ? `${childId}-again${again}` : childId;
    let proposal: Proposal | null;
    try {
      proposal = await deps.meta.propose(ctx);
    } catch (err) {
      if (!(err instanceof MetaAgentError)) throw err;
      state.tree.failed.push({ parent: parentId, step, reason: err.message, attempts: 1 });
      log({ type: 'generation-failed', step, parent: parentId, reason: err.message.slice(0, 2000), attempts: 1 });
      return 'done';
    }
    const examineProposal = async (p: Proposal, attempt: number) => {
      const dir = deps.folder.writeProgram(attempt === 0 ? base : `${base}-try${attempt}`, p.files);
      const report = await examine(p.files, dir);
      log({ type: 'quick-exam', step, dir: relative(folder.dir, dir), attempt, passed: report.passed, ...(report.failure ? { failure: `${report.failure.check}: ${report.failure.detail}`.slice(0, 2000) } : {}) });
      return { report, dir };
    };
    for (let attempt = 0; proposal; attempt++) {
      const { report, dir } = await examineProposal(proposal, attempt);
      if (report.passed) {
        const files = proposal.files;
        const noop = await wouldChangeNothing(parent, files, report);
        if (noop) {
          state.tree.noops.push({ parent: parentId, step, reason: noop.reason, description: proposal.description, ...(proposal.edits?.length ? { edits: proposal.edits } : {}) });
          log({ type: 'no-op', step, parent: parentId, reason: noop.reason, ...(noop.same ? { same: noop.same } : {}), dir: relative(folder.dir, dir), description: proposal.description.slice(0, 2000), ...(proposal.edits?.length ? { edits: proposal.edits.slice(0, 100) } : {}) });
          return 'no-op';
        }
        examined.set(childId, Promise.resolve(digestsOf(report)));
        if (attempt > 0 || again > 0) deps.folder.writeProgram(childId, files);
        const child = await programNode(childId, files, parentId, 'child', step, proposal.description, proposal.edits);
        // Written before the node line, so a viewer that sees the node finds its meta.json.
        folder.writeMeta(childId, {
          node: childId,
          parent: parentId,
          step,
          agent: deps.meta.mode,
          description: proposal.description,
          ...(proposal.edits?.length ? { edits: proposal.edits } : {}),
          attempts: attempt + 1,
          ...(proposal.feedback ? { feedback: proposal.feedback } : {}),
        });
        addNode(child, step);
        await evaluate(child, 'train', step);
        return 'done';
      }
      if (attempt >= options.repairAttempts) {
        state.tree.failed.push({ parent: parentId, step, reason: report.failure?.detail ?? 'quick examination failed', attempts: attempt + 1 });
        log({ type: 'generation-failed', step, parent: parentId, reason: `${report.failure?.check}: ${report.failure?.detail ?? ''}`.slice(0, 2000), attempts: attempt + 1, dir: relative(folder.dir, dir) });
        return 'done';
      }
      try {
        proposal = await deps.meta.repair(proposal, report, ctx, attempt + 1);
      } catch (err) {
        if (!(err instanceof MetaAgentError)) throw err;
        state.tree.failed.push({ parent: parentId, step, reason: err.message, attempts: attempt + 1 });
        log({ type: 'generation-failed', step, parent: parentId, reason: err.message.slice(0, 2000), attempts: attempt + 1 });
        return 'done';
      }
    }
    state.tree.failed.push({ parent: parentId, step, reason: 'the meta agent gave up', attempts: 1 });
    log({ type: 'generation-failed', step, parent: parentId, reason: 'the meta agent gave up', attempts: 1 });
    return 'done';
  }

  /**
   * Why a child that passed quick examination would change nothing, if it would: it is the same program as a node
   * of the tree, or its payloads on every quick-examination task are exactly its parent's. Such a child spends its
   * step but no evaluation, and the agent hears of it.
   */
  async function wouldChangeNothing(parent: TreeNode, files: ProgramFiles, report: QuickExamReport): Promise<{ reason: string; same?: string } | undefined> {
    const mineHash = sourceHash(files);
    const twin = [...state.tree.nodes.values()].find((n) => sourcesOf(n) === mineHash);
    if (twin) return { reason: `the same program as ${twin.id}`, same: twin.id };
    const mine = digestsOf(report);
    const theirs = await parentDigests(parent);
    if (mine.length > 0 && theirs !== undefined && theirs.length === mine.length && theirs.every((d, i) => d === mine[i])) {
      return { reason: `its payloads on the ${mine.length} quick-examination tasks are exactly its parent's`, same: parent.id };
    }
    return undefined;
  }

  /** A node's source hash (read once; a program folder that cannot be read matches nothing). */
  function sourcesOf(node: TreeNode): string {
    let h = sources.get(node.id);
    if (h === undefined) {
      try {
        h = sourceHash(readProgramFiles(join(folder.dir, node.dir)));
      } catch {
        h = `unreadable:${node.id}`;
      }
      sources.set(node.id, h);
    }
    return h;
  }

  /** A node's payload digests on the quick-examination tasks: kept when a child passes, examined again otherwise. */
  function parentDigests(node: TreeNode): Promise<string[] | undefined> {
    let known = examined.get(node.id);
    if (!known) {
      known = (async () => {
        const report = await examine(readProgramFiles(join(folder.dir, node.dir)), join(folder.dir, node.dir));
        return report.passed ? digestsOf(report) : undefined;
      })().catch(() => undefined);
      examined.set(node.id, known);
    }
    return known;
  }

  async function parentContext(parent: TreeNode, step: number): Promise<ParentContext> {
    let evaluation = lastEval.get(parent.id);
    const payloads = new Map<string, string>();
    const payloadMetadata = new Map<string, unknown>();
    const trajectories = new Map<string, string>();
    const images = new Map<string, TaskImages>();
    // The latest evaluation's evidence gives the payloads (and, after a resume, the evaluation itself).
    const dir = parent.scores.length ? folder.evidenceDir(parent.id, 'train', parent.scores.length - 1) : undefined;
    if (dir) {
      try {
        // Read within the evidence limits: a program's giant payload must not take the search's memory.
        const lines = readEvidenceLines(join(dir, 'tasks.jsonl'), TaskEvidenceSchema).records;
        for (const l of lines) {
          payloads.set(l.taskId, l.payload?.text ?? '');
          if (l.payload?.metadata !== undefined) payloadMetadata.set(l.taskId, l.payload.metadata);
          if (l.trajectory?.steps?.length) trajectories.set(l.taskId, renderSteps(l.trajectory.steps));
          const shown = evidenceImages(dir, l);
          if (shown.episode.length || shown.payload.length) images.set(l.taskId, shown);
        }
        if (!evaluation) {
          const summary = JSON.parse(readSmallFile(join(dir, 'summary.json'), SUMMARY_MAX_BYTES) ?? '');
          evaluation = { ...summary, tasks: lines } as EvaluationResult;
        }
      } catch {
        // No evidence to read (it was removed): the meta agent works from the program alone.
      }
    }
    const info = deps.env.info();
    material ??= memoryMaterial(deps.env).catch(() => ({ counts: [] }));
    const { example, counts } = await material;
    return {
      node: parent.id,
      files: readProgramFiles(join(folder.dir, parent.dir)),
      q: state.tree.q(parent),
      evaluations: parent.scores.length,
      evaluation,
      payloads,
      payloadMetadata,
      donors: crossoverDonors(state.tree, parent.id, folder.dir),
      trajectories,
      images,
      env: info,
      explain: (id) => deps.env.explain?.(id),
      envDescription: deps.env.describe?.() ?? info.name,
      step,
      seed: options.seed,
      history: history(state.tree),
      ...(deps.env.guide ? { guide: deps.env.guide() } : {}),
      roles: rolesLine(deps.models),
      ...(example ? { exampleEpisode: example } : {}),
      updateEpisodes: counts,
      tried: triedFrom(state.tree, parent.id),
      inspirations: inspirationsFor(state.tree, parent.id),
      cluePool: state.cluePool,
      onClusters: (c) => {
        if (c.source === 'model') state.cluePool = c.pool;
        const counts = new Map<string, number>();
        for (const g of Object.values(c.pool.assignment)) counts.set(g, (counts.get(g) ?? 0) + 1);
        const clusters = c.source === 'model' ? c.pool.clusters.map((x) => ({ ...x, tasks: counts.get(x.id) ?? 0 })) : [];
        log({ type: 'clusters', step, node: parent.id, source: c.source, notes: c.notes.slice(0, 100), clusters, assignment: c.assignment, summaries: c.summaries });
      },
      beforeModelCall: () => checkBudget(deps.ledger, options.maxUsd),
      onModelCall: (call) => {
        deps.ledger.add({ role: 'meta', node: parent.id, promptTokens: call.promptTokens, ...(call.cachedTokens !== undefined ? { cachedTokens: call.cachedTokens } : {}), completionTokens: call.completionTokens, usd: call.usd });
        log({ type: 'meta-call', step, node: parent.id, role: 'meta', ...call });
      },
    };
  }

  // Final: the selected program on the held-out split, beside the root and the seeds. Its lines carry step -1, so
  // they can never be mistaken for a step of the budget (which a resume may raise).
  const finalStep = -1;
  if (state.tree.evaluated().length === 0) {
    journal.close();
    throw new Error(`no program has a score yet${stopped ? `: ${stopped}` : ''}`);
  }
  const winner = selectFinal(state.tree, options.ucb, options.selection);
  const N = state.tree.totalEvaluations();
  // Redone when this session ran steps (a resume with a raised budget), so the report is about the final tree.
  // A search stopped by infrastructure has not finished: its resume does the final phase.
  if (!failure && !interrupted && (ranSteps > 0 || !replayFinalDone(read.events, finalStep))) {
    log({ type: 'final', selection: options.selection, winner: winner.id, lcb: selectionScore(state.tree, winner, options.ucb, 'lcb'), validation: state.tree.q(winner) });
    const tested = await runStep(finalStep, async () => {
      if (!options.testWinner || stopped) return;
      const toTest = [winner, state.tree.root, ...[...state.tree.nodes.values()].filter((n) => n.kind === 'seed')];
      for (const node of new Set(toTest)) if (node.testScore === undefined) await evaluate(node, 'test', finalStep);
    });
    if (tested) log({ type: 'step-done', step: finalStep });
  }
  journal.close();
  const counts = state.tree;
  const actions = [...stepActions.values()];
  const seeds = [...counts.nodes.values()].filter((n) => n.kind === 'seed');
  const summary: SearchSummary = {
    steps: actions.length,
    generations: actions.filter((kind) => kind === 'generate').length,
    reEvaluations: actions.filter((kind) => kind === 'evaluate').length,
    validGenerations: [...counts.nodes.values()].filter((n) => n.kind === 'child').length,
    failedGenerations: counts.failed.length,
    noOps: counts.noops.length,
    fullEvaluations: counts.totalEvaluations(),
    winner: {
      id: winner.id,
      validation: counts.q(winner),
      evaluations: winner.scores.length,
      lcb: lcb(counts.q(winner), winner.scores.length, N, options.ucb),
      ...(winner.testScore !== undefined ? { test: winner.testScore } : {}),
    },
    root: { validation: counts.q(counts.root), ...(counts.root.testScore !== undefined ? { test: counts.root.testScore } : {}) },
    seeds: seeds.map((s) => ({ id: s.id, validation: counts.q(s), ...(s.testScore !== undefined ? { test: s.testScore } : {}) })),
    unscored: [...counts.nodes.values()].reduce((n, node) => n + (node.unscored?.length ?? 0), 0),
    usd: deps.ledger.usd,
    tokens: deps.ledger.tokens,
  };
  if (stopped) summary.stopped = stopped;
  if (failure) summary.failure = failure;
  if (interrupted) summary.interrupted = true;
  return summary;
}

/** Children that changed nothing one step may write before it ends as a no-op. */
const MAX_NO_OP_TRIES = 3;

function digestsOf(report: QuickExamReport): string[] {
  return report.payloads.map((p) => `${p.taskId}:${p.digest}`);
}

function createdAt(folder: RunFolder): string {
  try {
    return folder.read().createdAt;
  } catch {
    return '';
  }
}

function abortReason(signal: AbortSignal | undefined): string {
  const r: unknown = signal?.reason;
  return r instanceof Error ? r.message : r === undefined ? 'aborted' : String(r);
}

/** Every evaluated child with structured edits, and how its first score compares with its parent's first. */
function history(tree: SearchTree): EditOutcome[] {
  const out: EditOutcome[] = [];
  for (const n of tree.nodes.values()) {
    if (!n.edits?.length || !n.parent || n.scores.length === 0) continue;
    const parent = tree.get(n.parent);
    if (parent.scores.length === 0) continue;
    out.push({ node: n.id, parent: n.parent, edits: n.edits, delta: (n.scores[0] as number) - (parent.scores[0] as number) });
  }
  // A no-op's edits changed nothing: as an edit that scored exactly its parent's score.
  for (const x of tree.noops) if (x.edits?.length) out.push({ node: `step ${x.step}`, parent: x.parent, edits: x.edits, delta: 0 });
  return out;
}

function replayFinalDone(events: JournalEvent[], finalStep: number): boolean {
  return events.some((e) => e.type === 'step-done' && e.step === finalStep);
}

/** The reason of the journal's last stop, unless infrastructure caused it (a resume then carries on). */
function carriedStop(events: JournalEvent[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as JournalEvent;
    if (e.type === 'stopped') return e.infrastructure || e.interrupted ? undefined : e.reason;
  }
  return undefined;
}

/** Agent and memo-model tokens of an evaluation go to the ledger under the evaluated node. */
function chargeAgents(result: EvaluationResult, node: string, deps: SearchDeps): void {
  const { executor, memo } = result.stats.tokens;
  if (executor.prompt + executor.completion > 0) {
    deps.ledger.add({ role: 'executor', node, promptTokens: executor.prompt, completionTokens: executor.completion, usd: priceOf(deps.models.executor, executor.prompt, executor.completion) });
  }
  if (memo.prompt + memo.completion > 0) {
    deps.ledger.add({ role: 'memo', node, promptTokens: memo.prompt, completionTokens: memo.completion, usd: priceOf(deps.models.memo, memo.prompt, memo.completion) });
  }
}

/** Throws BudgetExceeded once the spend has reached --max-usd. */
function checkBudget(ledger: CostLedger, maxUsd: number | undefined): void {
  if (maxUsd !== undefined && ledger.usd >= maxUsd) {
    throw new BudgetExceeded(`spent $${ledger.usd.toFixed(4)} of the $${maxUsd} cap`);
  }
}
