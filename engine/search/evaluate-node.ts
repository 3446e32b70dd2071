// One full evaluation of a node, wherever jobs run: its program on a split (a validation sample, or the whole test
// split), recorded in the tree and the journal with its evidence folder. An evaluation that scored nothing is kept
// apart: it changes no mean and no count, its evidence moves aside (the sample index stays free for the evaluation
// that will score it), and it counts toward the unscored streak.
import { relative } from 'node:path';
import { setAsideEvidence } from '../evaluate/evidence-aside.ts';
import type { EvaluationResult } from '../evaluate/evaluate.ts';
import { evalJob, evaluateByJob } from '../jobs/evaluate-job.ts';
import { jobKey } from '../jobs/job.ts';
import { priceOf } from '../llm/ledger.ts';
import type { SearchRun } from './search-run.ts';
import { recordEvaluation, type TreeNode } from './tree.ts';
import { unscoredReason } from './unscored.ts';

export async function evaluateNode(run: SearchRun, node: TreeNode, split: 'train' | 'test', step: number): Promise<EvaluationResult> {
  const { deps, folder, sampler } = run;
  const program = await run.compile(node);
  const index = split === 'train' ? sampler.claim(node.id) : 0;
  const sample = await sampler.sample(split, index);
  const dir = folder.evidenceDir(node.id, split, index);
  // Already there: an evaluation no finished step recorded left it; this one starts on a clean folder.
  setAsideEvidence(dir, 'interrupted');
  const started = Date.now();
  const job = evalJob({
    key: jobKey(run.runId, node.id, split, index, program.hash),
    program,
    env: run.envRef,
    split,
    seed: run.options.seed,
    ...(sample.taskIds ? { taskIds: sample.taskIds } : {}),
  });
  const result = await evaluateByJob(run.executor, job, { evidenceDir: dir, ...(deps.signal ? { signal: deps.signal } : {}) }, deps.env, deps.services.images);
  chargeAgents(run, result, node.id);
  const unscored = unscoredReason(result);
  const evidenceDir = unscored ? setAsideEvidence(dir, 'unscored') : dir;
  if (split === 'train') {
    if (!unscored) run.lastEval.set(node.id, result);
    run.noteValidation(unscored);
  }
  const score = unscored ? null : result.score;
  recordEvaluation(node, { step, split, score, ...(unscored ? { unscored } : {}) });
  if (split === 'train') sampler.release(node.id, index, score !== null);
  const { usage: _usage, byScenario, ...stats } = result.stats;
  run.log({
    type: 'evaluation',
    step,
    node: node.id,
    split,
    index,
    score,
    ...(unscored ? { unscored } : {}),
    tasks: result.tasks.length,
    ...(sample.taskIds ? { sampleSeed: sample.sampleSeed } : {}),
    evidence: relative(folder.dir, evidenceDir),
    stats: { ...stats, byScenario },
    ms: Date.now() - started,
  });
  return result;
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
