// "Did you mean …?" for a name someone mistyped (an option, a key of a spec): the known name a few edits away.

/** Edits (insert, delete, replace, swap two neighbours) from a to b, counted up to `cap` + 1. */
export function editDistance(a: string, b: string, cap = 3): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (prev2[j - 2] as number) + 1);
      row.push(d);
    }
    prev2 = prev;
    prev = row;
  }
  return prev[b.length] as number;
}

/** The known name closest to `name` when it is near enough to be what was meant (a third of its length in edits, at most 3). */
export function closest(name: string, known: readonly string[]): string | undefined {
  const cap = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const d = editDistance(name.toLowerCase(), k.toLowerCase(), cap);
    if (d <= cap && (!best || d < best.d)) best = { name: k, d };
  }
  return best?.name;
}

/** ' (did you mean "x"?)' or ''. */
export function didYouMean(name: string, known: readonly string[], quote = (s: string) => `"${s}"`): string {
  const near = closest(name, known);
  return near ? ` (did you mean ${quote(near)}?)` : '';
}
