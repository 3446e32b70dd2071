// Seeded, stable train/test assignment: a task is train when hash(seed, its id) < share. Its side depends on
// nothing else, so adding data never moves a task. Because the hash is uniform, every stratum (category,
// template, site) gets about the same share; `splitReport` shows the realised share per stratum.
import { createHash } from 'node:crypto';

export interface SplitOptions {
  seed: number;
  /** Share that goes to train (default 0.2: about 1:4 train:test). */
  trainShare?: number;
}

export function taskHash(seed: number, id: string): number {
  const h = createHash('sha256').update(`${seed}\u0000${id}`).digest();
  return h.readUInt32BE(0) / 2 ** 32;
}

export function isTrain(id: string, options: SplitOptions): boolean {
  return taskHash(options.seed, id) < (options.trainShare ?? 0.2);
}

/** Train and test counts per stratum. */
export function splitReport<T>(
  items: T[],
  idOf: (t: T) => string,
  stratumOf: (t: T) => string,
  options: SplitOptions,
): Record<string, { train: number; test: number }> {
  const out: Record<string, { train: number; test: number }> = {};
  for (const item of items) {
    const s = (out[stratumOf(item)] ??= { train: 0, test: 0 });
    if (isTrain(idOf(item), options)) s.train++;
    else s.test++;
  }
  return out;
}
