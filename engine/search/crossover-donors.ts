// The programs crossover may take a part from: the best evaluated nodes other than the parent (and the no-memory
// root), and the standard designs step 0 screened but did not keep, by mean validation score, with their files read
// from the run folder, the design each descends from, and its score per scenario on its latest evaluation.
import { join } from 'node:path';
import { readProgramFiles } from '../../memo-programs/files.ts';
import type { Donor } from '../meta/types.ts';
import type { SearchRun } from './search-run.ts';

const MAX_DONORS = 6;

export function crossoverDonors(run: SearchRun, parentId: string): Donor[] {
  const { tree } = run;
  const candidates: { node: string; q: number; dir: string }[] = tree
    .evaluated()
    .filter((n) => n.id !== parentId && n.kind !== 'root')
    .map((n) => ({ node: n.id, q: tree.q(n), dir: n.dir }));
  for (const r of run.screen?.results ?? []) {
    if (!r.kept && r.score !== null) candidates.push({ node: r.node, q: r.score, dir: join('programs', r.node) });
  }
  candidates.sort((a, b) => b.q - a.q || a.node.localeCompare(b.node));
  const out: Donor[] = [];
  for (const c of candidates) {
    if (out.length >= MAX_DONORS) break;
    try {
      const design = run.designOf(c.node) ?? run.screen?.results.find((r) => r.node === c.node)?.design;
      const byScenario = scenarioScores(run, c.node);
      out.push({ node: c.node, q: c.q, files: readProgramFiles(join(run.folder.dir, c.dir)), ...(design ? { design } : {}), ...(byScenario ? { byScenario } : {}) });
    } catch {
      // A node whose folder is gone gives nothing to cross with.
    }
  }
  return out;
}

/** A program's score per scenario on its latest evaluation this session. */
function scenarioScores(run: SearchRun, node: string): Record<string, number> | undefined {
  const byScenario = run.lastEval.get(node)?.stats.byScenario;
  if (!byScenario) return undefined;
  const out: Record<string, number> = Object.create(null);
  for (const [k, v] of Object.entries(byScenario)) if (v.score !== null) out[k] = v.score;
  return out;
}
