// The budget-aware tree search. Step 0 evaluates the no-memory root and the seed programs (the seeds enter as
// evaluated children of the root); each later step takes the policy's action — re-evaluate a program, or have the
// meta agent write a child of one, quick-examine it (with up to `repairAttempts` repairs) and evaluate it. A child
// that never passes spends the step but no evaluation. After the budget, the final phase picks the program to hand
// over (the best by the selection rule among those at least as good as the best starting program, a written child
// only when a paired test on validation resolves it as better; final-phase.ts) and evaluates it on the held-out test
// split beside the root and the seeds.
// Every change of the search's state is a journal line applied as it is written (SearchJournal, applyEvent); a
// resumed run folds the journal the same way and carries on from the first step that has no `step-done` line. The
// parts, each taking only what it uses: SearchJournal (the state and its journal), ProgramStore (write, compile,
// examine), StopControl (the stop), Evaluations (which tasks, the job, its line), ParentContexts (what the meta agent
// reads), NoOpCheck, initStep, policyStep, generateStep, finalPhase, summarize.
import type { CostLedger } from '../../foundation/llm/ledger.ts';
import type { ResolvedModels } from '../../foundation/llm/models.ts';
import type { HostServices } from '../../sandbox/primitives/index.ts';
import type { Environment } from '../environment/contract.ts';
import type { ProgressEvent } from '../evaluate/evaluate.ts';
import { InProcessExecutor, localEnvRef } from '../jobs/in-process.ts';
import type { JobExecutor } from '../jobs/executor.ts';
import type { EnvRef } from '../jobs/job.ts';
import type { MetaAgent } from '../meta/types.ts';
import { Evaluations } from './evaluate-node.ts';
import { finalPhase } from './final-phase.ts';
import { generateStep } from './generate-child.ts';
import { initStep } from './init-step.ts';
import type { JournalEvent } from './journal-events.ts';
import { NoOpCheck } from './no-op-check.ts';
import { ParentContexts } from './parent-context.ts';
import { POLICIES } from './policies/index.ts';
import { policyStep } from './policy-step.ts';
import { ProgramStore, type RunJobs, runIdOf } from './program-store.ts';
import { type RunOptions, seedsOf } from './run-options.ts';
import type { RunStore } from './run-store.ts';
import { SearchJournal, type SearchProgress } from './search-journal.ts';
import { runStepPool } from './step-pool.ts';
import { StopControl } from './stop-control.ts';
import { type SearchSummary, summarize } from './summary.ts';
import { ValidationSampler } from './validation-sampler.ts';

export type { SearchProgress } from './search-journal.ts';

export interface SearchDeps {
  env: Environment;
  services: HostServices;
  meta: MetaAgent;
  /** Where the run is kept (run-store/run-folder.ts's RunFolder, through the search's port). */
  folder: RunStore;
  options: RunOptions;
  models: ResolvedModels;
  ledger: CostLedger;
  /** Each journal line as it is written, with the state after it. */
  onEvent?: (event: JournalEvent, progress: SearchProgress) => void;
  /** Tasks done as an evaluation goes (not journaled): which node, and the evaluation's event. */
  onProgress?: (node: string, event: ProgressEvent) => void;
  /** Stops the search cleanly: the step in flight is abandoned (its resume redoes it), the journal says so. */
  signal?: AbortSignal;
  /** Called before each step; throwing stops the run (tests use it to simulate a kill). */
  beforeStep?: (step: number) => void;
  /** Where evaluations run, and the environment as workers open it (default: this process). */
  jobs?: { executor: JobExecutor; env: EnvRef };
}

export async function runSearch(deps: SearchDeps): Promise<SearchSummary> {
  const { options, folder, signal } = deps;
  const policy = POLICIES[options.policy];
  if (!policy) throw new Error(`unknown search policy ${options.policy}`);
  const journal = new SearchJournal(folder, deps.ledger, deps.onEvent);
  try {
    const { sandbox } = seedsOf(options);
    const jobs: RunJobs = {
      executor: deps.jobs?.executor ?? new InProcessExecutor(deps.env, deps.services),
      env: deps.jobs?.env ?? localEnvRef(deps.env),
      runId: runIdOf(folder),
    };
    const programs = new ProgramStore(folder, jobs, {
      tasks: options.quickExamTasks,
      seed: sandbox,
      ...(signal ? { signal } : {}),
    });
    const stops = new StopControl(journal, signal);
    const sampler = new ValidationSampler(deps.env, options);
    const hooks = { ...(signal ? { signal } : {}), ...(deps.onProgress ? { onProgress: deps.onProgress } : {}) };
    const evaluations = new Evaluations({
      journal,
      programs,
      sampler,
      jobs,
      env: deps.env,
      images: deps.services.images,
      models: deps.models,
      sandboxSeed: sandbox,
      ...hooks,
    });
    journal.record({ type: 'start', resumed: journal.resumed, pid: process.pid });
    journal.record({ type: 'validation', ...(await sampler.plan()) });
    if (
      !journal.state.initDone &&
      (await stops.runStep(0, () => initStep({ journal, programs, evaluations, options })))
    ) {
      journal.record({ type: 'step-done', step: 0 });
      stops.stopOnUnscoredStreak(0);
    }
    const noOps = new NoOpCheck(journal, programs);
    const contexts = new ParentContexts({
      journal,
      programs,
      noOps,
      sampler,
      env: deps.env,
      models: deps.models,
      ledger: deps.ledger,
      options,
    });
    const generator = {
      journal,
      programs,
      evaluations,
      contexts,
      noOps,
      meta: deps.meta,
      repairAttempts: options.repairAttempts,
    };
    const steps = {
      journal,
      stops,
      evaluations,
      policy,
      options,
      ledger: deps.ledger,
      ...(signal ? { signal } : {}),
      generate: (parent: string, step: number) => generateStep(generator, parent, step),
    };
    // Steps 1..budget: every step without a `step-done` line (after a kill with several in flight, the gaps too), up
    // to `parallel` at once.
    const todo = Array.from({ length: Math.max(0, options.budget) }, (_, i) => i + 1).filter(
      (s) => !journal.state.doneSteps.includes(s),
    );
    await runStepPool({
      steps: todo,
      parallel: options.parallel ?? 1,
      stopped: () => stops.stopped,
      ...(deps.beforeStep ? { beforeStep: deps.beforeStep } : {}),
      run: (step) => policyStep(steps, step),
    });
    const choice = await finalPhase({ journal, stops, evaluations, programs, options });
    return summarize(journal.state, options.ucb, deps.ledger, choice);
  } finally {
    journal.close();
  }
}
