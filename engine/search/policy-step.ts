// Steps 1..budget: each takes one action, chosen as it starts with the work in flight reserved in the tree — a node
// owed a first score is evaluated ahead of the policy; otherwise the policy re-evaluates a program or has the meta
// agent write a child of one.
import type { CostLedger } from '../../foundation/llm/ledger.ts';
import { seededRandom } from '../random.ts';
import { checkBudget } from './budget.ts';
import type { Evaluations } from './evaluate-node.ts';
import type { Choice, SearchPolicy } from './policy.ts';
import type { RunOptions } from './run-options.ts';
import type { SearchJournal } from './search-journal.ts';
import type { StopControl } from './stop-control.ts';
import { retryChoice } from './unscored.ts';

export interface StepParts {
  journal: SearchJournal;
  stops: StopControl;
  evaluations: Evaluations;
  /** Writes a child of `parent` (generate-child.ts's generateStep). */
  generate: (parent: string, step: number) => Promise<void>;
  policy: SearchPolicy;
  options: Pick<RunOptions, 'ucb' | 'seed' | 'maxUsd'>;
  ledger: CostLedger;
  signal?: AbortSignal;
}

export async function policyStep(p: StepParts, step: number): Promise<void> {
  const { journal, stops, options } = p;
  if (p.signal?.aborted) {
    if (!stops.stopped) stops.interrupt(step);
    return;
  }
  const { tree } = journal.state;
  const retry = retryChoice(tree);
  const choice: Choice = retry ?? p.policy.choose(tree, options.ucb, seededRandom(options.seed, 'policy', step));
  const { kind, node, score } = choice.action;
  journal.record({
    type: 'action',
    step,
    kind,
    node,
    score,
    candidates: choice.candidates,
    ...(retry ? { retry: retry.retry } : {}),
  });
  const release = tree.reserve(kind, node);
  const done = await stops
    .runStep(step, async () => {
      checkBudget(p.ledger, options.maxUsd);
      if (kind === 'evaluate') await p.evaluations.evaluate(tree.get(node), 'train', step);
      else await p.generate(node, step);
    })
    .finally(release);
  if (done) {
    journal.record({ type: 'step-done', step });
    stops.stopOnUnscoredStreak(step);
  }
}
