// One search run's state and its one owner: the tree, the journal every change goes through, the way the run
// stops (budget, infrastructure, the user's signal), compiled programs, and where jobs run. Every other part of the
// search (sampling, evaluation, generation, the final phase) works through a SearchRun and keeps no state of its own
// that the journal lacks.
import { createHash } from 'node:crypto';
import { join, relative } from 'node:path';
import { sourceHash } from '../../memo-programs/files.ts';
import { PROGRAMS } from '../../memo-programs/registry.ts';
import { compileProgram, type CompiledProgram, formatIssue } from '../../sandbox/compile.ts';
import type { QuickExamReport } from '../../sandbox/quick-exam.ts';
import { ToolchainError } from '../../sandbox/toolchain-error.ts';
import { reasonText } from '../../foundation/reason-text.ts';
import type { HostServices } from '../../sandbox/primitives/index.ts';
import type { CostLedger } from '../../foundation/llm/ledger.ts';
import type { ResolvedModels } from '../../foundation/llm/models.ts';
import type { Environment } from '../environment/contract.ts';
import type { ClusterPool } from '../meta/clue/pool.ts';
import type { MetaAgent } from '../meta/types.ts';
import type { JournalEvent, NewEvent } from './journal-events.ts';
import { type Replayed, replay } from './replay.ts';
import type { JournalWriter, RunStore } from './run-store.ts';
import type { EvaluationResult, ProgressEvent } from '../evaluate/evaluate.ts';
import { examineByJob, examJob } from '../jobs/exam-job.ts';
import { InProcessExecutor, localEnvRef } from '../jobs/in-process.ts';
import type { EnvRef } from '../jobs/job.ts';
import type { JobExecutor } from '../jobs/executor.ts';
import type { Edit, ProgramFiles } from '../meta/types.ts';
import { type RunOptions, seedsOf } from './run-options.ts';
import { BudgetExceeded } from './budget.ts';
import type { ActionKind } from './policy.ts';
import type { SearchTree, TreeNode } from './tree.ts';
import { seedNodeIds } from './node-ids.ts';
import { MAX_UNSCORED_IN_A_ROW, unscoredStopReason } from './unscored.ts';
import { ValidationSampler } from './validation-sampler.ts';

export interface SearchDeps {
  env: Environment;
  services: HostServices;
  meta: MetaAgent;
  /** Where the run is kept (run-store/run-folder.ts's RunFolder, through the search's port). */
  folder: RunStore;
  options: RunOptions;
  models: ResolvedModels;
  ledger: CostLedger;
  onEvent?: (event: JournalEvent, state: SearchState) => void;
  /** Tasks done as an evaluation goes (not journaled): which node, and the evaluation's event. */
  onProgress?: (node: string, event: ProgressEvent) => void;
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

export class SearchRun {
  readonly state: SearchState;
  /** The journal as it was when the run (re)started, replayed. */
  readonly past: Replayed;
  readonly pastEvents: JournalEvent[];
  /** The kind of action each completed step took (for the summary). */
  readonly stepActions: Map<number, ActionKind>;
  /** Each node's latest scored validation evaluation in this session (the meta agent reads it). */
  readonly lastEval = new Map<string, EvaluationResult>();
  /** Which validation tasks each evaluation scores. */
  readonly sampler: ValidationSampler;
  readonly executor: JobExecutor;
  readonly envRef: EnvRef;
  /** Names this run in job keys (its folder and creation time): a queue shared by several runs keeps them apart. */
  readonly runId: string;
  /** Why the search stopped early, if it did (a stop for the budget carries over a resume; others do not). */
  stopped: string | undefined;
  /** The infrastructure failure that stopped the search (a resume carries on once it is fixed). */
  failure: string | undefined;
  interrupted = false;
  /** Steps this session ran. */
  ranSteps = 0;
  private stopRecorded = false;
  private screened: Extract<JournalEvent, { type: 'screen' }> | undefined;
  private readonly journal: JournalWriter;
  private readonly compiled = new Map<string, CompiledProgram>();
  /** Validation evaluations that scored nothing, in a row (this session); MAX_UNSCORED_IN_A_ROW stop the search. */
  private unscoredInARow = 0;
  private lastUnscored = '';

  constructor(readonly deps: SearchDeps) {
    const { folder } = deps;
    this.pastEvents = folder.readJournal().events;
    this.past = replay(this.pastEvents);
    this.journal = folder.openJournal();
    this.state = { tree: this.past.tree, ledger: deps.ledger, step: this.past.completedSteps, startedAt: Date.now(), stepTimes: [], cluePool: this.past.cluePool };
    for (const call of this.past.metaCalls) {
      if (call.reused) continue;
      deps.ledger.add({ role: call.role, node: call.node, promptTokens: call.promptTokens, ...(call.cachedTokens !== undefined ? { cachedTokens: call.cachedTokens } : {}), completionTokens: call.completionTokens, usd: call.usd });
    }
    this.stepActions = new Map(this.past.actions.map((a) => [a.step, a.kind]));
    this.executor = deps.jobs?.executor ?? new InProcessExecutor(deps.env, deps.services);
    this.envRef = deps.jobs?.env ?? localEnvRef(deps.env);
    this.runId = createHash('sha256').update(`${folder.dir}\0${createdAt(folder)}`).digest('hex').slice(0, 12);
    this.stopped = carriedStop(this.pastEvents);
    this.sampler = new ValidationSampler(deps.env, deps.options, this.past.evaluations);
  }

  /** Step 0's screen of standard designs, as journaled (this session's or the replayed one). */
  get screen(): Extract<JournalEvent, { type: 'screen' }> | undefined {
    return this.screened ?? this.past.screen;
  }

  get tree() {
    return this.state.tree;
  }

  get options() {
    return this.deps.options;
  }

  get folder(): RunStore {
    return this.deps.folder;
  }

  log(event: NewEvent): JournalEvent {
    const full = this.journal.append(event);
    if (full.type === 'screen') this.screened = full;
    this.deps.onEvent?.(full, this.state);
    return full;
  }

  close(): void {
    this.journal.close();
  }

  /** Stops the search once: steps in flight that meet the same cap (or dead service) do not stop it again. */
  stop(step: number, reason: string, infrastructure: boolean): void {
    if (this.stopRecorded) return;
    this.stopRecorded = true;
    this.stopped = reason;
    if (infrastructure) this.failure = reason;
    this.log({ type: 'stopped', step, reason, ...(infrastructure ? { infrastructure } : {}) });
  }

  /** The user's signal fired: journaled once, however many steps in flight see it. */
  interrupt(step: number): void {
    if (this.interrupted) return;
    this.interrupted = true;
    this.stopped = `interrupted at step ${step}: ${abortReason(this.deps.signal)}`;
    this.log({ type: 'stopped', step, reason: this.stopped, interrupted: true });
  }

  /** Runs a step's work: true when it finished; a spending cap or a dead toolchain stops the search instead. */
  async runStep(step: number, work: () => Promise<void>): Promise<boolean> {
    const { signal } = this.deps;
    try {
      if (signal?.aborted) throw signal.reason;
      await work();
      return true;
    } catch (err) {
      if (signal?.aborted) this.interrupt(step);
      else if (err instanceof BudgetExceeded) this.stop(step, err.message, false);
      else if (err instanceof ToolchainError) this.stop(step, `step ${step} could not finish: ${err.message}`, true);
      else throw err;
      return false;
    }
  }

  /** Counts a validation evaluation toward (or out of) the unscored streak. */
  noteValidation(unscored: string | undefined): void {
    this.unscoredInARow = unscored ? this.unscoredInARow + 1 : 0;
    if (unscored) this.lastUnscored = unscored;
  }

  stopOnUnscoredStreak(step: number): void {
    if (!this.stopped && this.unscoredInARow >= MAX_UNSCORED_IN_A_ROW) this.stop(step, unscoredStopReason(this.unscoredInARow, this.lastUnscored), true);
  }

  /** A node's compiled program (compiled once per session). */
  async compile(node: TreeNode): Promise<CompiledProgram> {
    let c = this.compiled.get(node.id);
    if (!c) {
      const r = await compileProgram({ entryPath: join(this.folder.dir, node.dir, 'index.ts') });
      if (!r.ok) throw new Error(`program ${node.id} no longer compiles: ${r.issues.map(formatIssue).join('; ')}`);
      c = r.program;
      this.compiled.set(node.id, c);
    }
    return c;
  }

  /**
   * The standard design (a named program) a node descends from: its seed's, found by walking up the tree; seeds are
   * the named programs the run was given or the screen kept. Undefined for the root and for seeds given as paths.
   */
  designOf(id: string): string | undefined {
    const seeds = new Map<string, string>();
    this.options.seeds.forEach((name, i) => seeds.set(seedNodeIds(this.options.seeds)[i] as string, name));
    for (const r of this.screen?.results ?? []) seeds.set(r.node, r.design);
    for (let node = this.tree.nodes.get(id); node; node = node.parent ? this.tree.nodes.get(node.parent) : undefined) {
      const name = seeds.get(node.id);
      if (name !== undefined) return PROGRAMS.some((p) => p.name === name) ? name : undefined;
    }
    return undefined;
  }

  /** A quick examination of the files in `dir` (the run folder's copy), wherever jobs run. */
  examine(files: ProgramFiles, dir: string): Promise<QuickExamReport> {
    const { options } = this;
    return examineByJob(
      this.executor,
      examJob({ key: `${this.runId}/exam/${relative(this.folder.dir, dir)}/${sourceHash(files).slice(0, 16)}`, files, dir, env: this.envRef, tasks: options.quickExamTasks, seed: seedsOf(options).sandbox }),
      this.deps.signal,
    );
  }

  /** Writes a program's files into the run folder and makes its node (compiled, not yet in the tree). */
  async programNode(id: string, files: ProgramFiles, parent: string | null, kind: TreeNode['kind'], step: number, description?: string, edits?: Edit[]): Promise<TreeNode> {
    const { folder } = this;
    folder.writeProgram(id, files);
    const node: TreeNode = {
      id,
      parent,
      kind,
      dir: relative(folder.dir, folder.programDir(id)),
      hash: '',
      step,
      parentSnapshot: parent ? this.tree.q(this.tree.get(parent)) : null,
      scores: [],
      ...(description ? { description } : {}),
      ...(edits?.length ? { edits } : {}),
    };
    node.hash = (await this.compile(node)).hash;
    return node;
  }

  /** Adds a node to the tree and journals it. */
  addNode(node: TreeNode, step: number): void {
    this.tree.add(node);
    this.log({
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
  }
}

function createdAt(folder: RunStore): string {
  try {
    return folder.read().createdAt;
  } catch {
    return '';
  }
}

function abortReason(signal: AbortSignal | undefined): string {
  return reasonText(signal?.reason);
}

/** The reason of the journal's last stop, unless infrastructure or the user caused it (a resume then carries on). */
function carriedStop(events: JournalEvent[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as JournalEvent;
    if (e.type === 'stopped') return e.infrastructure || e.interrupted ? undefined : e.reason;
  }
  return undefined;
}
