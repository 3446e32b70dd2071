// Jaccard similarity of two token collections, as sets: |A ∩ B| / |A ∪ B|; two empty sets are identical.
export function jaccard(a: Iterable<string>, b: Iterable<string>): number {
  const setA = a instanceof Set ? (a as Set<string>) : new Set(a);
  const setB = b instanceof Set ? (b as Set<string>) : new Set(b);
  if (setA.size === 0 && setB.size === 0) return 1;
  let inter = 0;
  const [small, large] = setA.size <= setB.size ? [setA, setB] : [setB, setA];
  for (const x of small) if (large.has(x)) inter++;
  return inter / (setA.size + setB.size - inter);
}
