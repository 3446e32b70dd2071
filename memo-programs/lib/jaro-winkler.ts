// Jaro and Jaro-Winkler string similarity in [0, 1], over Unicode code points.

export function jaro(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  if (s.length === 0 && t.length === 0) return 1;
  if (s.length === 0 || t.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(s.length, t.length) / 2) - 1);
  const sMatched = new Array<boolean>(s.length).fill(false);
  const tMatched = new Array<boolean>(t.length).fill(false);
  let matches = 0;
  for (let i = 0; i < s.length; i++) {
    const lo = Math.max(0, i - window);
    const hi = Math.min(t.length - 1, i + window);
    for (let j = lo; j <= hi; j++) {
      if (tMatched[j] || s[i] !== t[j]) continue;
      sMatched[i] = tMatched[j] = true;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let j = 0;
  for (let i = 0; i < s.length; i++) {
    if (!sMatched[i]) continue;
    while (!tMatched[j]) j++;
    if (s[i] !== t[j]) transpositions++;
    j++;
  }
  const m = matches;
  return (m / s.length + m / t.length + (m - transpositions / 2) / m) / 3;
}

export interface JaroWinklerOptions {
  /** Weight of the common-prefix bonus (default 0.1; at most 0.25). */
  prefixScale?: number;
  /** Longest prefix that earns the bonus (default 4). */
  maxPrefix?: number;
}

export function jaroWinkler(a: string, b: string, options: JaroWinklerOptions = {}): number {
  const p = Math.min(options.prefixScale ?? 0.1, 0.25);
  const maxPrefix = options.maxPrefix ?? 4;
  const sim = jaro(a, b);
  const s = [...a];
  const t = [...b];
  let prefix = 0;
  while (prefix < Math.min(maxPrefix, s.length, t.length) && s[prefix] === t[prefix]) prefix++;
  return sim + prefix * p * (1 - sim);
}
