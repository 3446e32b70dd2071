// Small seeded helpers for generators.
export const int = (random: () => number, lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
export const choice = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length) % items.length] as T;
export function sample<T>(random: () => number, items: readonly T[], n: number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a.slice(0, n);
}
/** Characters OCR never confuses with one another at small sizes (no 0/O/Q/D-like, 1/I/L or J/) pairs). */
export const SAFE_LETTERS = 'ACEFHKMNPRTUVWXY';
export const SAFE_DIGITS = '234679';
export const safeString = (random: () => number, alphabet: string, n: number) =>
  Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
