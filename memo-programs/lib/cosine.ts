// Vector helpers over plain number arrays (what crosses the sandbox boundary).

export function dot(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new RangeError(`vectors differ in length: ${a.length} vs ${b.length}`);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

export function norm(a: readonly number[]): number {
  return Math.sqrt(dot(a, a));
}

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  const d = norm(a) * norm(b);
  return d === 0 ? 0 : dot(a, b) / d;
}

export function normalize(a: readonly number[]): number[] {
  const n = norm(a);
  return n === 0 ? a.slice() : a.map((x) => x / n);
}

/** Element-wise mean of equal-length vectors. */
export function centroid(vectors: readonly (readonly number[])[]): number[] {
  if (vectors.length === 0) return [];
  const out = new Array<number>((vectors[0] as number[]).length).fill(0);
  for (const v of vectors) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) + (v[i] as number);
  return out.map((x) => x / vectors.length);
}
