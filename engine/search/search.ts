// The budget-aware tree search. Step 0 evaluates the no-memory root and the seed programs (the seeds enter as
// evaluated children of the root); each later step takes the policy's action — re-evaluate a program, or have the
// meta agent write a child of one, quick-examine it (with up to `repairAttempts` repairs) and evaluate it. A child
// that never passes spends the step but no evaluation. After the budget, the selected program (best lower
// confidence bound) is evaluated on the held-out test split beside the root and the seeds.
// Everything is journaled as it happens; a resumed run replays the journal and carries on from the first step
// that has no `step-done` line. The parts: SearchRun (the run's state and journal), ValidationSampler (which tasks
// an evaluation scores), evaluateNode, generateStep (propose, examine, repair, no-op check), ParentContexts (what
// the meta agent reads), initStep, policyStep, finalPhase, summarize.
import type { Environment } from '../environment/contract.ts';
import type { HostServices } from '../../sandbox/primitives/index.ts';
import type { JournalEvent } from '../../search-trees/journal.ts';
import type { RunFolder, RunOptions } from '../../search-trees/run-folder.ts';
import type { ProgressEvent } from '../evaluate/evaluate.ts';
import type { JobExecutor } from '../jobs/executor.ts';
import type { EnvRef } from '../jobs/job.ts';
import type { CostLedger } from '../llm/ledger.ts';
import type { ResolvedModels } from '../llm/models.ts';
import type { ClusterPool } from '../meta/clue/pool.ts';
import type { MetaAgent } from '../meta/types.ts';
import { finalPhase } from './final-phase.ts';
import type { Generator } from './generate-child.ts';
import { initStep } from './init-step.ts';
import { NoOpCheck } from './no-op-check.ts';
import { ParentContexts } from './parent-context.ts';
import { POLICIES } from './policies/index.ts';
import { policyStep } from './policy-step.ts';
import { SearchRun } from './search-run.ts';
import { runStepPool } from './step-pool.ts';
import { type SearchSummary, summarize } from './summary.ts';
import type { SearchTree } from './tree.ts';

export interface SearchDeps {
  env: Environment;
  services: HostServices;
  meta: MetaAgent;
  folder: RunFolder;
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

export async function runSearch(deps: SearchDeps): Promise<SearchSummary> {
  const policy = POLICIES[deps.options.policy];
  if (!policy) throw new Error(`unknown search policy ${deps.options.policy}`);
  const run = new SearchRun(deps);
  try {
    run.log({ type: 'start', resumed: run.pastEvents.length > 0, pid: process.pid });
    run.log({ type: 'validation', ...(await run.sampler.plan()) });
    run.tree.evaluationLimit = await run.sampler.evaluationLimit();
    if (!run.past.initDone && (await run.runStep(0, () => initStep(run)))) {
      run.log({ type: 'step-done', step: 0 });
      run.stopOnUnscoredStreak(0);
    }
    const noOps = new NoOpCheck(run);
    const generator: Generator = { run, contexts: new ParentContexts(run, noOps), noOps };
    // Steps 1..budget: every step without a `step-done` line (after a kill with several in flight, the gaps too), up
    // to `parallel` at once.
    const todo = Array.from({ length: Math.max(0, deps.options.budget) }, (_, i) => i + 1).filter((s) => !run.past.doneSteps.includes(s));
    await runStepPool({
      steps: todo,
      parallel: deps.options.parallel ?? 1,
      stopped: () => run.stopped !== undefined,
      ...(deps.beforeStep ? { beforeStep: deps.beforeStep } : {}),
      run: (step) => policyStep(generator, policy, step),
    });
    return summarize(run, await finalPhase(run));
  } finally {
    run.close();
  }
}
