// `--seeds auto`: step 0 scores every standard design (the baselines and the pipeline seed) on the first validation
// sample, all at once (they share the collected episodes and the agent's cached outcomes), and seeds the tree with
// the `keep` best. The screen is journaled whole (each design's score and evidence); the kept designs become seed
// nodes whose first evaluation is their screen evaluation, so nothing is scored twice.
import { readProgramFiles } from '../../memo-programs/files.ts';
import { resolveProgram } from '../../memo-programs/registry.ts';
import { recordNodeEvaluation, type Scored, scoreProgram } from './evaluate-node.ts';
import type { SearchRun } from './search-run.ts';
import type { TreeNode } from './tree.ts';

export interface ScreenSpec {
  designs: string[];
  keep: number;
}

/** Standard designs an automatic screen keeps as seeds. */
export const SCREEN_KEEP = 3;

interface Screened {
  design: string;
  node: TreeNode;
  scored: Scored;
  order: number;
}

export async function screenDesigns(run: SearchRun, spec: ScreenSpec, ids: string[]): Promise<void> {
  const screened = await Promise.all(
    spec.designs.map(async (design, order): Promise<Screened> => {
      const node = await run.programNode(ids[order] as string, readProgramFiles(resolveProgram(design).path), 'root', 'seed', 0, `seed program ${design} (screened: one of the best standard designs on validation)`);
      const scored = await scoreProgram(run, node.id, await run.compile(node), 'train', 0, 0);
      return { design, node, scored, order };
    }),
  );
  const score = (s: Screened) => s.scored.event.score ?? -Infinity;
  // Best first; ties keep the order the designs were given in.
  const ranked = [...screened].sort((a, b) => score(b) - score(a) || a.order - b.order);
  const kept = ranked.filter((s) => s.scored.event.score !== null).slice(0, spec.keep);
  run.log({
    type: 'screen',
    step: 0,
    keep: spec.keep,
    results: ranked.map((s) => ({
      design: s.design,
      node: s.node.id,
      score: s.scored.event.score,
      tasks: s.scored.event.tasks,
      evidence: s.scored.event.evidence,
      ...(s.scored.event.unscored ? { unscored: s.scored.event.unscored } : {}),
      kept: kept.includes(s),
    })),
  });
  for (const s of kept) {
    run.addNode(s.node, 0);
    recordNodeEvaluation(run, s.node, s.scored.event);
  }
}
