// What a task's explanation says the answer is, as texts to look for in a payload: the environment's explanation is
// ground truth in a line for the meta agent (data files and LoCoMo: "… | gold: A | evidence turns: [id, session n
// (date)] Speaker: text || …"; a module's own words otherwise, e.g. `repair of mk1 machines: "cut power, swap fuse"`).
// The evidence turns' texts, the gold answers and any quoted phrase are taken; a text too short to mean anything alone
// (under 3 characters) is dropped.

const MAX_GOLD = 12;
const MAX_CHARS = 600;

export function goldTexts(explanation: string): string[] {
  const out: string[] = [];
  const add = (s: string | undefined) => {
    const t = (s ?? '').trim().replace(/^["'“”]+|["'“”]+$/g, '').trim();
    if (t.length >= 3 && !out.includes(t)) out.push(t.slice(0, MAX_CHARS));
  };
  const parts = explanation.split(' | ');
  for (const part of parts) {
    const gold = /^gold(?: answer)?: (.*)$/s.exec(part.trim());
    if (gold && gold[1] !== '—') for (const a of (gold[1] as string).split(' | ')) add(a);
    const turns = /^evidence turns: (.*)$/s.exec(part.trim());
    if (turns) for (const t of (turns[1] as string).split(' || ')) add(/^\[[^\]]*\]\s*(?:[^:]{1,60}: )?(.*)$/s.exec(t)?.[1]);
  }
  for (const m of explanation.matchAll(/"([^"]{3,300})"/g)) add(m[1]);
  return out.slice(0, MAX_GOLD);
}

const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** Whether a payload holds a gold text (case and white space folded). */
export function holdsGold(payload: string, gold: readonly string[]): boolean {
  const p = fold(payload);
  return gold.some((g) => p.includes(fold(g)));
}
