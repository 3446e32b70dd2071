// One full evaluation of a program, wherever jobs run: on a split (a validation sample, or the whole test split),
// with its evidence folder. evaluateNode records it in the tree and the journal; the step-0 screen of standard designs
// (screen.ts) journals its own. An evaluation that scored nothing is kept apart: it changes no mean and no count, its
// evidence moves aside (the sample index stays free for the evaluation that will score it), and it counts toward the
// unscored streak.
import { relative } from 'node:path';
import type { CompiledProgram } from '../../sandbox/compile.ts';
import type { NewEvent } from './journal-events.ts';
import { setAsideEvidence } from '../evaluate/evidence-aside.ts';
import type { EvaluationResult, ProgressEvent } from '../evaluate/evaluate.ts';
import { evalJob, evaluateByJob } from '../jobs/evaluate-job.ts';
import { jobKey } from '../jobs/job.ts';
import { priceOf } from '../../foundation/llm/ledger.ts';
import type { SearchRun } from './search-run.ts';
import { seedsOf } from './run-options.ts';
import { recordEvaluation, type TreeNode } from './tree.ts';
import { unscoredReason } from './unscored.ts';

export type EvaluationEvent = Extract<NewEvent, { type: 'evaluation' }>;

export interface Scored {
  result: EvaluationResult;
  /** The journal line that records it (its node, index, score, evidence folder). */
  event: EvaluationEvent;
}

/**
 * Runs program `id` on a split's sample `index` and says what to journal; records nothing. `signal`: stops it (default
 * the search's own).
 */
export async function scoreProgram(run: SearchRun, id: string, program: CompiledProgram, split: 'train' | 'test', index: number, step: number, signal = run.deps.signal): Promise<Scored> {
  const { deps, folder, sampler } = run;
  const sample = await sampler.sample(split, index);
  const dir = folder.evidenceDir(id, split, index);
  // Already there: an evaluation no finished step recorded left it; this one starts on a clean folder.
  setAsideEvidence(dir, 'interrupted');
  const started = Date.now();
  const job = evalJob({
    key: jobKey(run.runId, id, split, index, program.hash),
    program,
    env: run.envRef,
    split,
    seed: seedsOf(run.options).sandbox,
    ...(sample.taskIds ? { taskIds: sample.taskIds } : {}),
  });
  const hints = { evidenceDir: dir, ...(signal ? { signal } : {}), ...(deps.onProgress ? { onProgress: (e: ProgressEvent) => deps.onProgress?.(id, e) } : {}) };
  const result = await evaluateByJob(run.executor, job, hints, deps.env, deps.services.images);
  chargeAgents(run, result, id);
  const unscored = unscoredReason(result);
  const evidenceDir = unscored ? setAsideEvidence(dir, 'unscored') : dir;
  if (split === 'train') {
    if (!unscored) run.lastEval.set(id, result);
    run.noteValidation(unscored);
  }
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

/** Records an evaluation of a node of the tree: its score (or why it has none), its sample index, its journal line. */
export function recordNodeEvaluation(run: SearchRun, node: TreeNode, event: EvaluationEvent): void {
  recordEvaluation(node, { step: event.step, split: event.split, score: event.score, ...(event.unscored ? { unscored: event.unscored } : {}) });
  if (event.split === 'train') run.sampler.release(node.id, event.index, event.score !== null);
  run.log(event);
}

export async function evaluateNode(run: SearchRun, node: TreeNode, split: 'train' | 'test', step: number): Promise<EvaluationResult> {
  const program = await run.compile(node);
  const index = split === 'train' ? run.sampler.claim(node.id) : 0;
  let scored: Scored;
  try {
    scored = await scoreProgram(run, node.id, program, split, index, step);
  } catch (err) {
    if (split === 'train') run.sampler.release(node.id, index, false);
    throw err;
  }
  recordNodeEvaluation(run, node, scored.event);
  return scored.result;
}

/** Agent and memo-model tokens of an evaluation go to the ledger under the evaluated node. */
function chargeAgents(run: SearchRun, result: EvaluationResult, node: string): void {
  const { ledger, models } = run.deps;
  const { executor, memo } = result.stats.tokens;
  if (executor.prompt + executor.completion > 0) {
    ledger.add({ role: 'executor', node, promptTokens: executor.prompt, completionTokens: executor.completion, usd: priceOf(models.executor, executor.prompt, executor.completion) });
  }
  if (memo.prompt + memo.completion > 0) {
    ledger.add({ role: 'memo', node, promptTokens: memo.prompt, completionTokens: memo.completion, usd: priceOf(models.memo, memo.prompt, memo.completion) });
  }
}
