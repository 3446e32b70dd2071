// Small statistics helpers for benchmark output.
export function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const i = Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))));
  return s[i] as number;
}

export const median = (xs: number[]) => quantile(xs, 0.5);
export const fmt = (x: number, digits = 2) => x.toFixed(digits);

export function table(rows: (string | number)[][]): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => String(r[c] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, c) => String(cell).padEnd(widths[c] ?? 0)).join('  ')).join('\n');
}
