// Steps 1..budget: each takes one action, chosen as it starts with the work in flight reserved in the tree — a node
// owed a first score is evaluated ahead of the policy; otherwise the policy re-evaluates a program or has the meta
// agent write a child of one.
import { seededRandom } from '../random.ts';
import { checkBudget } from './budget.ts';
import { evaluateNode } from './evaluate-node.ts';
import { generateStep, type Generator } from './generate-child.ts';
import type { Choice, SearchPolicy } from './policy.ts';
import { retryChoice } from './unscored.ts';

export async function policyStep(g: Generator, policy: SearchPolicy, step: number): Promise<void> {
  const { run } = g;
  const { deps, options, state } = run;
  if (deps.signal?.aborted) {
    if (!run.stopped) run.interrupt(step);
    return;
  }
  const started = Date.now();
  state.step = Math.max(state.step, step);
  const retry = retryChoice(state.tree);
  const choice: Choice = retry ?? policy.choose(state.tree, options.ucb, seededRandom(options.seed, 'policy', step));
  run.log({ type: 'action', step, kind: choice.action.kind, node: choice.action.node, score: choice.action.score, candidates: choice.candidates, ...(retry ? { retry: retry.retry } : {}) });
  const release = state.tree.reserve(choice.action.kind, choice.action.node);
  const done = await run
    .runStep(step, async () => {
      checkBudget(deps.ledger, options.maxUsd);
      if (choice.action.kind === 'evaluate') await evaluateNode(run, state.tree.get(choice.action.node), 'train', step);
      else await generateStep(g, choice.action.node, step);
    })
    .finally(release);
  if (done) {
    run.log({ type: 'step-done', step });
    run.stepActions.set(step, choice.action.kind);
    run.stopOnUnscoredStreak(step);
  }
  state.stepTimes.push(Date.now() - started);
  run.ranSteps++;
}
