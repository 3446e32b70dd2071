import { createHash } from 'node:crypto';

/** mulberry32 from a 32-bit state: uniform numbers in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A seeded random generator (xmur3 hash of the parts into mulberry32): the same parts give the same sequence, so a
// search with a given seed makes the same choices, before and after a resume.
export function seededRandom(...parts: (string | number)[]): () => number {
  let h = 1779033703;
  for (const ch of parts.join('\u0000')) {
    h = Math.imul(h ^ ch.charCodeAt(0), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  return mulberry32(h);
}

/**
 * A seeded generator whose seed is a SHA-256 of the parts: for many short, similar keys (task ids that share a
 * prefix), where the character hash above leaves the first draws slightly uneven.
 */
export function hashedRandom(...parts: (string | number)[]): () => number {
  return mulberry32(createHash('sha256').update(parts.join('\u0000')).digest().readUInt32LE(0));
}
