// Which node of a run to export, and its scores. By default the run's own choice (its last `final` event); a run
// that never reached its final phase gets the LCB argmax over its evaluated nodes, computed by engine/search.
import { existsSync } from 'node:fs';
import { PathOutsideError, resolveInside } from '../foundation/safe-path.ts';
import { selectFinal, selectionScore } from '../engine/search/selection.ts';
import type { TreeNode } from '../engine/search/tree.ts';
import { readJournal } from '../run-store/journal.ts';
import { replay } from '../engine/search/replay.ts';
import { type RunInfo, RunFolder } from '../run-store/run-folder.ts';
import { UsageError } from '../foundation/usage-error.ts';

export interface Selected {
  folder: RunFolder;
  run: RunInfo;
  node: TreeNode;
  /** The node's program folder, proven inside the run folder. */
  programDir: string;
  chosenBy: 'final' | 'lcb' | 'node';
  scores: { validation: number | null; n: number; lcb: number | null; test: number | null };
}

export function selectNode(runDir: string, nodeId?: string): Selected {
  const folder = new RunFolder(runDir);
  if (!existsSync(runDir)) throw new UsageError(`${runDir} does not exist`);
  let run: RunInfo;
  try {
    run = folder.read();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { events } = readJournal(folder.journalPath);
  const { tree } = replay(events);
  if (tree.nodes.size === 0) throw new UsageError(`${runDir}: the journal has no programs yet`);
  let node: TreeNode;
  let chosenBy: Selected['chosenBy'];
  if (nodeId !== undefined) {
    const found = tree.nodes.get(nodeId);
    if (!found) throw new UsageError(`${runDir} has no node "${nodeId}"; its nodes: ${[...tree.nodes.keys()].join(', ')}`);
    node = found;
    chosenBy = 'node';
  } else {
    const final = events.filter((e) => e.type === 'final').at(-1);
    const winner = final && tree.nodes.get(final.winner);
    if (winner) {
      node = winner;
      chosenBy = 'final';
    } else {
      if (tree.evaluated().length === 0) throw new UsageError(`${runDir}: no program has been evaluated yet; name one with --node`);
      node = selectFinal(tree, run.options.ucb, 'lcb');
      chosenBy = 'lcb';
    }
  }
  const n = node.scores.length;
  return {
    programDir: programDirOf(folder, node),
    folder,
    run,
    node,
    chosenBy,
    scores: {
      validation: n ? tree.q(node) : null,
      n,
      lcb: n ? selectionScore(tree, node, run.options.ucb, 'lcb') : null,
      test: node.testScore ?? null,
    },
  };
}

/**
 * Where the node's program is: inside the run folder, or the export is refused. The journal's schema already refuses
 * a `dir` with ".." or an absolute path; this also catches a link in the folder that leads out of it.
 */
function programDirOf(folder: RunFolder, node: TreeNode): string {
  try {
    // The entry too: a link named index.ts could lead anywhere.
    resolveInside(folder.dir, `${node.dir}/index.ts`);
    return resolveInside(folder.dir, node.dir);
  } catch (err) {
    if (!(err instanceof PathOutsideError)) throw err;
    throw new Error(`node ${node.id}: its program folder is not inside the run folder (${err.message}); refusing to export it`, { cause: err });
  }
}
