// Which validation tasks each evaluation of a node scores. Evaluation k of every node uses task sample k (paired:
// a child's first score compares with its parent's first on identical tasks). Indices are claimed when an
// evaluation starts, so two evaluations of one node in flight (parallel search) never share one; an unscored one
// frees its index again.
import type { Environment } from '../environment/contract.ts';
import { taskHash } from '../environment/roles.ts';
import type { JournalEvent } from '../../search-trees/journal.ts';
import type { RunOptions } from '../../search-trees/run-folder.ts';
import { evalSample } from '../evaluate/task-sample.ts';

export interface TaskSample {
  /** The sample's task ids, or undefined for every validation task. */
  taskIds?: string[];
  /** The seed the sample was drawn with (journaled with the evaluation). */
  sampleSeed: number;
}

export class ValidationSampler {
  private readonly scored = new Map<string, Set<number>>();
  private readonly running = new Map<string, Set<number>>();
  private validationIds: Promise<string[]> | undefined;

  constructor(
    private readonly env: Environment,
    private readonly options: RunOptions,
    past: readonly Extract<JournalEvent, { type: 'evaluation' }>[],
  ) {
    for (const e of past) if (e.split === 'train' && e.score !== null) this.add(this.scored, e.node, e.index);
  }

  /** The lowest sample index this node has neither scored nor in flight; it is in flight from now on. */
  claim(node: string): number {
    const scored = this.scored.get(node);
    const running = this.running.get(node) ?? new Set<number>();
    let k = 0;
    while (scored?.has(k) || running.has(k)) k++;
    this.running.set(node, running.add(k));
    return k;
  }

  /** The evaluation with index k ended; a scored one keeps its index taken. */
  release(node: string, k: number, scored: boolean): void {
    this.running.get(node)?.delete(k);
    if (scored) this.add(this.scored, node, k);
  }

  /** The tasks of sample `index` of a split (the test split is always scored whole). */
  async sample(split: 'train' | 'test', index: number): Promise<TaskSample> {
    const { options } = this;
    const sampleSeed = Math.floor(taskHash(options.seed, `${split}/${index}`) * 2 ** 31);
    const fraction = split === 'train' ? options.evalFraction : 1;
    if (fraction >= 1) return { sampleSeed };
    const ids = await this.ids();
    const filter = evalSample(ids, sampleSeed, fraction, options.minEvalTasks);
    return filter ? { taskIds: ids.filter(filter), sampleSeed } : { sampleSeed };
  }

  private ids(): Promise<string[]> {
    this.validationIds ??= this.env.worlds('train').then((ws) => ws.flatMap((w) => w.tasks.map((t) => t.taskId)));
    return this.validationIds;
  }

  private add(map: Map<string, Set<number>>, node: string, k: number): void {
    map.set(node, (map.get(node) ?? new Set()).add(k));
  }
}
