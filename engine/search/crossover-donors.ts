// The programs crossover may take a part from: the best evaluated nodes other than the parent (and the no-memory
// root), by mean validation score, with their files read from the run folder.
import { join } from 'node:path';
import { readProgramFiles } from '../../memo-programs/files.ts';
import type { Donor } from '../meta/types.ts';
import type { SearchTree } from './tree.ts';

const MAX_DONORS = 4;

export function crossoverDonors(tree: SearchTree, parentId: string, runDir: string): Donor[] {
  const out: Donor[] = [];
  const best = tree
    .evaluated()
    .filter((n) => n.id !== parentId && n.kind !== 'root')
    .sort((a, b) => tree.q(b) - tree.q(a) || a.id.localeCompare(b.id));
  for (const n of best) {
    if (out.length >= MAX_DONORS) break;
    try {
      out.push({ node: n.id, q: tree.q(n), files: readProgramFiles(join(runDir, n.dir)) });
    } catch {
      // A node whose folder is gone gives nothing to cross with.
    }
  }
  return out;
}
