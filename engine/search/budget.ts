// The dollar cap (--max-usd): checked before each step and before each model call; reaching it stops the search
// cleanly (journaled, and a resume with a raised cap carries on).
import type { CostLedger } from '../../foundation/llm/ledger.ts';

export class BudgetExceeded extends Error {}

/** Throws BudgetExceeded once the spend has reached `maxUsd`. */
export function checkBudget(ledger: CostLedger, maxUsd: number | undefined): void {
  if (maxUsd !== undefined && ledger.usd >= maxUsd) {
    throw new BudgetExceeded(`spent $${ledger.usd.toFixed(4)} of the $${maxUsd} cap`);
  }
}
