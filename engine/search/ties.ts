// Whether the selected program is told apart from its closest rivals on validation: their rewards compared task by
// task on the tasks both were scored on (paired), the winner's mean advantage against its 95% half-width. Programs it
// is not resolvably better than are named as tied with it, not presented as beaten.
import { join } from 'node:path';
import { readEvidenceLines, TaskEvidenceSchema } from '../evaluate/evidence.ts';
import { mean, normalHalfWidth, pairedDifferences, winsTiesLosses } from '../study/statistics.ts';
import type { RunStore } from './run-store.ts';
import type { SearchTree, TreeNode } from './tree.ts';

export interface Tie {
  /** The programs the winner cannot be told apart from (the winner not among them). */
  nodes: string[];
  note: string;
}

/** Rivals looked at, at most: the best by mean validation score. */
const MAX_RIVALS = 5;

/** A node's validation reward per task, from every scored evaluation's evidence (a task scored twice: its mean). */
export function taskRewards(folder: RunStore, node: TreeNode): Map<string, number> {
  return rewardsIn([...node.samples].sort((a, b) => a - b).map((k) => folder.evidenceDir(node.id, 'train', k)));
}

/** A node's reward per task on the validation held out for selection (final-phase.ts; none when not scored there). */
export function selectionRewards(folder: RunStore, node: string): Map<string, number> {
  return rewardsIn([folder.evidenceDir(node, 'selection', 0)]);
}

function rewardsIn(dirs: string[]): Map<string, number> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const dir of dirs) {
    try {
      const lines = readEvidenceLines(join(dir, 'tasks.jsonl'), TaskEvidenceSchema).records;
      for (const l of lines) {
        if (typeof l.reward !== 'number') continue;
        const s = sums.get(l.taskId) ?? { sum: 0, n: 0 };
        s.sum += l.reward;
        s.n++;
        sums.set(l.taskId, s);
      }
    } catch {
      // Evidence removed: that evaluation cannot be compared task by task.
    }
  }
  return new Map([...sums].map(([id, s]) => [id, s.sum / s.n]));
}

export interface PairedDifference {
  /** Tasks both were scored on. */
  tasks: number;
  /** Mean of a − b over them. */
  mean: number;
  /** 95% half-width of that mean (0 when every task gives the same difference). */
  halfWidth: number;
  /** Tasks on which they differ. */
  differing: number;
}

export function pairedDifference(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): PairedDifference {
  // The formulas are engine/study/statistics.ts's (one definition each): d_i, x̄_d and z · s_d / √n.
  const d = pairedDifferences(a, b);
  if (d.length === 0) return { tasks: 0, mean: 0, halfWidth: Infinity, differing: 0 };
  const { wins, losses } = winsTiesLosses(d);
  return { tasks: d.length, mean: mean(d), halfWidth: normalHalfWidth(d), differing: wins + losses };
}

/** The winner's closest rivals it is not resolvably better than, or undefined when it stands apart. */
export function tiesOf(tree: SearchTree, folder: RunStore, winner: TreeNode): Tie | undefined {
  const rivals = tree
    .evaluated()
    .filter((n) => n.id !== winner.id && n.kind !== 'root')
    .sort((a, b) => tree.q(b) - tree.q(a) || a.id.localeCompare(b.id))
    .slice(0, MAX_RIVALS);
  if (!rivals.length) return undefined;
  const mine = taskRewards(folder, winner);
  const tied: { id: string; d: PairedDifference }[] = [];
  for (const r of rivals) {
    const d = pairedDifference(mine, taskRewards(folder, r));
    if (d.tasks > 0 && d.mean <= d.halfWidth + 1e-9) tied.push({ id: r.id, d });
  }
  if (!tied.length) return undefined;
  const parts = tied.map(({ id, d }) =>
    d.differing === 0
      ? `${id} (the same reward on all ${d.tasks} common tasks)`
      : `${id} (${d.mean >= 0 ? '+' : ''}${d.mean.toFixed(3)} ± ${d.halfWidth.toFixed(3)} over ${d.tasks} common tasks, ${d.differing} differing)`,
  );
  return {
    nodes: tied.map((t) => t.id),
    note: `${winner.id} cannot be told apart on validation from ${parts.join(', ')}: it is one of ${tied.length + 1} programs equally good as far as validation shows`,
  };
}
