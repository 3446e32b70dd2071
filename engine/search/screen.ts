// `--seeds auto`: step 0 scores every standard design (the baselines and the pipeline seed) on the first validation
// sample, all at once (they share the collected episodes and the agent's cached outcomes), and seeds the tree with
// the `keep` best. The screen is journaled whole (each design's score and evidence); the kept designs become seed
// nodes whose first evaluation is their screen evaluation, so nothing is scored twice.
import { readProgramFiles } from '../../memo-programs/files.ts';
import { resolveProgram } from '../../memo-programs/registry.ts';
import type { Evaluations, Scored } from './evaluate-node.ts';
import type { NodeLine, ProgramStore } from './program-store.ts';
import type { SearchJournal } from './search-journal.ts';

export interface ScreenSpec {
  designs: string[];
  keep: number;
}

/** Standard designs an automatic screen keeps as seeds. */
export const SCREEN_KEEP = 3;

interface Screened {
  design: string;
  node: NodeLine;
  scored: Scored;
  order: number;
}

export async function screenDesigns(
  p: { journal: SearchJournal; programs: ProgramStore; evaluations: Evaluations },
  spec: ScreenSpec,
  ids: string[],
): Promise<void> {
  const { journal, programs, evaluations } = p;
  const rootQ = journal.state.tree.q(journal.state.tree.get('root'));
  // One design's failure stops the others, and the screen ends only once every one has: the search tears down its
  // services after a failed step, and an evaluation still running then fails on closed services, unhandled.
  const stop = new AbortController();
  const signal = evaluations.signal ? AbortSignal.any([evaluations.signal, stop.signal]) : stop.signal;
  let failure: { error: unknown } | undefined;
  const settled = await Promise.allSettled(
    spec.designs.map(async (design, order): Promise<Screened> => {
      try {
        signal.throwIfAborted();
        const description = `seed program ${design} (screened: one of the best standard designs on validation)`;
        const node = await programs.writeNode(
          { id: ids[order] as string, parent: 'root', kind: 'seed', step: 0, parentSnapshot: rootQ, description },
          readProgramFiles(resolveProgram(design).path),
        );
        const scored = await evaluations.score(node.id, await programs.compile(node), 'train', 0, 0, signal);
        return { design, node, scored, order };
      } catch (err) {
        if (!failure) {
          failure = { error: err };
          stop.abort(err);
        }
        throw err;
      }
    }),
  );
  if (failure) throw failure.error;
  const screened = settled.map((s) => (s as PromiseFulfilledResult<Screened>).value);
  const score = (s: Screened) => s.scored.event.score ?? -Infinity;
  // Best first; ties keep the order the designs were given in.
  const ranked = [...screened].sort((a, b) => score(b) - score(a) || a.order - b.order);
  const kept = ranked.filter((s) => s.scored.event.score !== null).slice(0, spec.keep);
  journal.record({
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
    journal.record(s.node);
    evaluations.record(s.scored.event);
  }
}
