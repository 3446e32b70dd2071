// One full evaluation of a program, wherever jobs run: on a split (a validation sample, or the whole test split),
// with its evidence folder. `evaluate` records it as the node's `evaluation` line; the step-0 screen of standard
// designs (screen.ts) and a child's first sample (generate-child.ts) journal theirs as they decide. An evaluation that
// scored nothing is recorded apart: it changes no mean and no count, its evidence moves aside (the sample index stays
// free for the evaluation that will score it), and it counts toward the unscored streak.
import { relative } from 'node:path';
import type { CompiledProgram } from '../../sandbox/compile.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import type { ResolvedModels } from '../../foundation/llm/models.ts';
import { priceOf } from '../../foundation/llm/ledger.ts';
import type { Environment } from '../environment/contract.ts';
import { setAsideEvidence } from '../evaluate/evidence-aside.ts';
import type { EvaluationResult, ProgressEvent } from '../evaluate/evaluate.ts';
import { evalJob, evaluateByJob } from '../jobs/evaluate-job.ts';
import { jobKey } from '../jobs/job.ts';
import type { NewEvent } from './journal-events.ts';
import type { ProgramStore, RunJobs } from './program-store.ts';
import type { SearchJournal } from './search-journal.ts';
import type { TreeNode } from './tree.ts';
import { unscoredReason } from './unscored.ts';
import type { ValidationSampler } from './validation-sampler.ts';

/** The sample index a held-out evaluation's job key carries. */
const SELECTION_INDEX = -1;

export type EvaluationEvent = Extract<NewEvent, { type: 'evaluation' }>;

export interface Scored {
  result: EvaluationResult;
  /** The journal line that records it (its node, index, score, evidence folder). */
  event: EvaluationEvent;
}

export interface EvaluationSettings {
  journal: SearchJournal;
  programs: ProgramStore;
  sampler: ValidationSampler;
  jobs: RunJobs;
  env: Environment;
  images: ImageStore;
  /** Prices of the agent's and the programs' model calls. */
  models: ResolvedModels;
  /** The isolate's random seed. */
  sandboxSeed: number;
  signal?: AbortSignal;
  /** Tasks done as an evaluation goes (not journaled): which node, and the evaluation's event. */
  onProgress?: (node: string, event: ProgressEvent) => void;
}

export class Evaluations {
  constructor(private readonly s: EvaluationSettings) {}

  get sampler(): ValidationSampler {
    return this.s.sampler;
  }

  /** The search's own stop signal, if it has one. */
  get signal(): AbortSignal | undefined {
    return this.s.signal;
  }

  /**
   * Runs program `id` on a split's sample `index` and says what to journal (its model tokens are spent already).
   * `signal`: stops it (default the search's own).
   */
  async score(
    id: string,
    program: CompiledProgram,
    split: 'train' | 'test',
    index: number,
    step: number,
    signal = this.s.signal,
  ): Promise<Scored> {
    const { s } = this;
    const { folder } = s.programs;
    const sample = await s.sampler.sample(split, index);
    const dir = folder.evidenceDir(id, split, index);
    // Already there: an evaluation no finished step recorded left it; this one starts on a clean folder.
    setAsideEvidence(dir, 'interrupted');
    const started = Date.now();
    const job = evalJob({
      key: jobKey(s.jobs.runId, id, split, index, program.hash),
      program,
      env: s.jobs.env,
      split,
      seed: s.sandboxSeed,
      ...(sample.taskIds ? { taskIds: sample.taskIds } : {}),
    });
    const onProgress = s.onProgress;
    const hints = {
      evidenceDir: dir,
      ...(signal ? { signal } : {}),
      ...(onProgress ? { onProgress: (e: ProgressEvent) => onProgress(id, e) } : {}),
    };
    const result = await evaluateByJob(s.jobs.executor, job, hints, s.env, s.images);
    this.spend(result, id, step);
    const unscored = unscoredReason(result);
    const evidenceDir = unscored ? setAsideEvidence(dir, 'unscored') : dir;
    const { usage: _usage, byScenario, ...stats } = result.stats;
    const event: EvaluationEvent = {
      type: 'evaluation',
      step,
      node: id,
      split,
      index,
      score: unscored ? null : result.score,
      ...(unscored ? { unscored } : {}),
      tasks: result.tasks.length,
      ...(sample.taskIds ? { sampleSeed: sample.sampleSeed } : {}),
      evidence: relative(folder.dir, evidenceDir),
      stats: { ...stats, byScenario },
      ms: Date.now() - started,
    };
    return { result, event };
  }

  /** Records an evaluation of a node of the tree: its `evaluation` line (its score or why it has none, its sample). */
  record(event: EvaluationEvent): void {
    if (event.split === 'train') this.s.sampler.release(event.node, event.index);
    this.s.journal.record(event);
  }

  /** Evaluates a node of the tree on its next validation sample, or on the test split, and records it. */
  async evaluate(node: TreeNode, split: 'train' | 'test', step: number): Promise<void> {
    const program = await this.s.programs.compile(node);
    const index = split === 'train' ? this.s.sampler.claim(node) : 0;
    let scored: Scored;
    try {
      scored = await this.score(node.id, program, split, index, step);
    } catch (err) {
      if (split === 'train') this.s.sampler.release(node.id, index);
      throw err;
    }
    this.record(scored.event);
  }

  /**
   * Scores a node on the validation tasks held out for selection (selection-holdout.ts) and records it as its
   * `selection` line. Not a validation evaluation: it enters no mean, no count, no sample, and no parent context reads
   * it. Its job key carries sample index -1, never one of the search's samples.
   */
  async scoreOnSelection(node: TreeNode, taskIds: string[], step: number): Promise<number | null> {
    const { s } = this;
    const program = await s.programs.compile(node);
    const dir = s.programs.folder.evidenceDir(node.id, 'selection', 0);
    const job = evalJob({ key: jobKey(s.jobs.runId, node.id, 'selection', SELECTION_INDEX, program.hash), program, env: s.jobs.env, split: 'train', seed: s.sandboxSeed, taskIds });
    const result = await evaluateByJob(s.jobs.executor, job, { evidenceDir: dir, ...(s.signal ? { signal: s.signal } : {}) }, s.env, s.images);
    this.spend(result, node.id, step);
    s.journal.record({ type: 'selection', step, node: node.id, score: result.score, tasks: result.tasks.length, evidence: relative(s.programs.folder.dir, dir) });
    return result.score;
  }

  /** The agent's and the memo model's tokens of an evaluation, as `spend` lines charged under the evaluated node. */
  private spend(result: EvaluationResult, node: string, step: number): void {
    const { models, journal } = this.s;
    for (const role of ['executor', 'memo'] as const) {
      const t = result.stats.tokens[role];
      if (t.prompt + t.completion === 0) continue;
      journal.record({
        type: 'spend',
        step,
        node,
        role,
        promptTokens: t.prompt,
        completionTokens: t.completion,
        usd: priceOf(models[role], t.prompt, t.completion),
      });
    }
  }
}
