// How a search stops before its budget: the dollar cap (a BudgetExceeded from a step), a dead toolchain or service
// (a ToolchainError, or MAX_UNSCORED_IN_A_ROW evaluations in a row that scored nothing), or the user's signal. Each
// stop is a `stopped` line; the stop state is what applyEvent made of those lines, so a resume knows it too (a budget
// stop holds; after the others the resume carries on).
import { reasonText } from '../../foundation/reason-text.ts';
import { ToolchainError } from '../../sandbox/toolchain-error.ts';
import { BudgetExceeded } from './budget.ts';
import type { SearchJournal } from './search-journal.ts';
import type { StopState } from './search-state.ts';
import { MAX_UNSCORED_IN_A_ROW, unscoredStopReason } from './unscored.ts';

export class StopControl {
  constructor(
    private readonly journal: SearchJournal,
    private readonly signal?: AbortSignal,
  ) {}

  get state(): StopState {
    return this.journal.state.stop;
  }

  get stopped(): boolean {
    return this.state.kind !== 'running';
  }

  /** Stops the search once: steps in flight that meet the same cap (or dead service) do not stop it again. */
  stop(step: number, kind: 'budget' | 'infrastructure', reason: string): void {
    if (!this.stopped) this.journal.record({ type: 'stopped', step, kind, reason });
  }

  /** The user's signal fired: journaled once, however many steps in flight see it (it outranks an earlier stop). */
  interrupt(step: number): void {
    if (this.state.kind !== 'interrupted')
      this.journal.record({
        type: 'stopped',
        step,
        kind: 'interrupted',
        reason: `interrupted at step ${step}: ${abortReason(this.signal)}`,
      });
  }

  /** Runs a step's work: true when it finished; a spending cap or a dead toolchain stops the search instead. */
  async runStep(step: number, work: () => Promise<void>): Promise<boolean> {
    const { signal } = this;
    try {
      if (signal?.aborted) throw signal.reason;
      await work();
      return true;
    } catch (err) {
      if (signal?.aborted) this.interrupt(step);
      else if (err instanceof BudgetExceeded) this.stop(step, 'budget', err.message);
      else if (err instanceof ToolchainError)
        this.stop(step, 'infrastructure', `step ${step} could not finish: ${err.message}`);
      else throw err;
      return false;
    }
  }

  /** After a step: too many validation evaluations in a row scored nothing (the journal's streak) stops the search. */
  stopOnUnscoredStreak(step: number): void {
    const { inARow, last } = this.journal.state.unscored;
    if (inARow >= MAX_UNSCORED_IN_A_ROW) this.stop(step, 'infrastructure', unscoredStopReason(inARow, last));
  }
}

function abortReason(signal: AbortSignal | undefined): string {
  return reasonText(signal?.reason);
}
