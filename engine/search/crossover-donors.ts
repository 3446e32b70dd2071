// The programs crossover may take a part from: the best evaluated nodes other than the parent (and the no-memory
// root), and the standard designs step 0 screened but did not keep, by mean validation score, with their files read
// from the run folder, the design each descends from, and its score per scenario on its latest scored evaluation.
import { join } from 'node:path';
import { readSmallFile } from '../../foundation/small-file.ts';
import { SUMMARY_MAX_BYTES } from '../evaluate/evidence.ts';
import type { Donor } from '../meta/types.ts';
import type { JournalEvent } from './journal-events.ts';
import { designOf } from './node-ids.ts';
import type { ProgramStore } from './program-store.ts';
import type { SearchTree } from './tree.ts';

const MAX_DONORS = 6;

export interface DonorSources {
  tree: SearchTree;
  screen: Extract<JournalEvent, { type: 'screen' }> | undefined;
  programs: ProgramStore;
  /** The run's seed programs (their nodes descend from these designs). */
  seeds: string[];
}

export function crossoverDonors(s: DonorSources, parentId: string): Donor[] {
  const { tree, screen, programs } = s;
  const { folder } = programs;
  const candidates: { node: string; q: number; dir: string; evidence?: string }[] = tree
    .evaluated()
    .filter((n) => n.id !== parentId && n.kind !== 'root')
    .map((n) => ({
      node: n.id,
      q: tree.q(n),
      dir: n.dir,
      evidence: folder.evidenceDir(n.id, 'train', n.samples.at(-1) as number),
    }));
  for (const r of screen?.results ?? []) {
    if (!r.kept && r.score !== null)
      candidates.push({
        node: r.node,
        q: r.score,
        dir: join('programs', r.node),
        evidence: join(folder.dir, r.evidence),
      });
  }
  candidates.sort((a, b) => b.q - a.q || a.node.localeCompare(b.node));
  const out: Donor[] = [];
  for (const c of candidates) {
    if (out.length >= MAX_DONORS) break;
    try {
      const design = designOf(tree, s.seeds, screen, c.node) ?? screen?.results.find((r) => r.node === c.node)?.design;
      const byScenario = c.evidence ? scenarioScores(c.evidence) : undefined;
      out.push({
        node: c.node,
        q: c.q,
        files: programs.files(c),
        ...(design ? { design } : {}),
        ...(byScenario ? { byScenario } : {}),
      });
    } catch {
      // A node whose folder is gone gives nothing to cross with.
    }
  }
  return out;
}

/** A program's score per scenario on an evaluation, from its evidence's summary (undefined when it cannot be read). */
function scenarioScores(evidence: string): Record<string, number> | undefined {
  let byScenario: Record<string, { score: number | null }> | undefined;
  try {
    byScenario = JSON.parse(readSmallFile(join(evidence, 'summary.json'), SUMMARY_MAX_BYTES) ?? '').stats?.byScenario;
  } catch {
    return undefined;
  }
  if (!byScenario || typeof byScenario !== 'object') return undefined;
  const out: Record<string, number> = Object.create(null);
  for (const [k, v] of Object.entries(byScenario)) if (typeof v?.score === 'number') out[k] = v.score;
  return out;
}
