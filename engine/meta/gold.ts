// What a task's explanation says the answer is, as texts to look for in a payload: its gold answers (every one of
// them: any counts) and the texts of its evidence records, read from the explanation's fields. A text too short to
// mean anything alone (under 3 characters) is dropped.
import type { Explanation } from '../environment/contract.ts';

const MAX_GOLD = 12;
const MAX_CHARS = 600;

export function goldTexts(explanation: Explanation | undefined): string[] {
  const out: string[] = [];
  const add = (s: string | undefined) => {
    // A gold answer written in quotes ("“Charlotte's Web”") is looked for without them.
    const t = (s ?? '').trim().replace(/^["'“”]+|["'“”]+$/g, '').trim();
    if (t.length >= 3 && !out.includes(t)) out.push(t.slice(0, MAX_CHARS));
  };
  for (const g of explanation?.gold ?? []) add(g);
  for (const r of explanation?.evidence ?? []) add(r.text);
  return out.slice(0, MAX_GOLD);
}

const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** Whether a payload holds a gold text (case and white space folded). */
export function holdsGold(payload: string, gold: readonly string[]): boolean {
  const p = fold(payload);
  return gold.some((g) => p.includes(fold(g)));
}
