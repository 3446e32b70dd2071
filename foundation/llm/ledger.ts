// What the models cost: tokens per role and per search node, and dollars where prices are configured
// (AUTOMEMO_<ROLE>_USD_PER_M_INPUT / _OUTPUT, and _CACHED for prompt tokens the endpoint served from its cache).
// The search stops cleanly when the spend reaches --max-usd.
import type { Role, RoleModel } from './models.ts';

export interface Spend {
  calls: number;
  promptTokens: number;
  /** Of the prompt tokens, those the endpoint served from its prompt cache. */
  cachedTokens: number;
  completionTokens: number;
  /** null when no price is configured for any call counted here. */
  usd: number | null;
}

const empty = (): Spend => ({ calls: 0, promptTokens: 0, cachedTokens: 0, completionTokens: 0, usd: null });

/** Dollars of one call; `cached` of the `prompt` tokens are priced at the cached rate (the input rate when unset). */
export function priceOf(model: RoleModel | null | undefined, prompt: number, completion: number, cached = 0): number | null {
  if (!model || (model.usdPerMInput === undefined && model.usdPerMOutput === undefined && model.usdPerMCached === undefined)) return null;
  const hit = Math.min(Math.max(cached, 0), prompt);
  const input = model.usdPerMInput ?? 0;
  return ((prompt - hit) * input + hit * (model.usdPerMCached ?? input) + completion * (model.usdPerMOutput ?? 0)) / 1e6;
}

export class CostLedger {
  readonly byRole = new Map<string, Spend>();
  readonly byNode = new Map<string, Spend>();
  readonly total: Spend = empty();

  add(entry: { role: Role | string; node: string; promptTokens: number; cachedTokens?: number; completionTokens: number; usd: number | null }): void {
    for (const s of [this.total, get(this.byRole, entry.role), get(this.byNode, entry.node)]) {
      s.calls++;
      s.promptTokens += entry.promptTokens;
      s.cachedTokens += entry.cachedTokens ?? 0;
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
