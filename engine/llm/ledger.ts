// What the models cost: tokens per role and per search node, and dollars where prices are configured
// (AUTOMEMO_<ROLE>_USD_PER_M_INPUT / _OUTPUT). The search stops cleanly when the spend reaches --max-usd.
import type { Role, RoleModel } from './models.ts';

export interface Spend {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** null when no price is configured for any call counted here. */
  usd: number | null;
}

const empty = (): Spend => ({ calls: 0, promptTokens: 0, completionTokens: 0, usd: null });

export function priceOf(model: RoleModel | null | undefined, prompt: number, completion: number): number | null {
  if (!model || (model.usdPerMInput === undefined && model.usdPerMOutput === undefined)) return null;
  return (prompt * (model.usdPerMInput ?? 0) + completion * (model.usdPerMOutput ?? 0)) / 1e6;
}

export class CostLedger {
  readonly byRole = new Map<string, Spend>();
  readonly byNode = new Map<string, Spend>();
  readonly total: Spend = empty();

  add(entry: { role: Role | string; node: string; promptTokens: number; completionTokens: number; usd: number | null }): void {
    for (const s of [this.total, get(this.byRole, entry.role), get(this.byNode, entry.node)]) {
      s.calls++;
      s.promptTokens += entry.promptTokens;
      s.completionTokens += entry.completionTokens;
      if (entry.usd !== null) s.usd = (s.usd ?? 0) + entry.usd;
    }
  }

  get usd(): number {
    return this.total.usd ?? 0;
  }

  get tokens(): number {
    return this.total.promptTokens + this.total.completionTokens;
  }
}

function get(map: Map<string, Spend>, key: string): Spend {
  let s = map.get(key);
  if (!s) map.set(key, (s = empty()));
  return s;
}
