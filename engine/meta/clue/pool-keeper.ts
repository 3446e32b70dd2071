// CluE's pool as one meta agent keeps it through a run. Steps in flight each hold the pool as it was when they
// started; clustering them one after another from the newest pool lets a later step reuse what an earlier one just
// summarised and clustered (the same evaluation sample costs no second call) and keeps one step's new clusters from
// being overwritten by another's. A pool the keeper has never seen (a new run, or a resumed one read from the
// journal) starts its line afresh; a step given no pool continues the keeper's. Pools are told apart by what they
// hold, not by identity: the search's pool is rebuilt from each clustering's journal line, equal to the one made here.
import { createHash } from 'node:crypto';
import { type AskJson, type ClueOutcome, type ClueTask, clusterTasks } from './cluster-tasks.ts';
import { type ClusterPool, emptyPool } from './pool.ts';

/** A pool's content as one digest, whatever order its maps were filled in. */
function contentOf(pool: ClusterPool): string {
  const sorted = (r: Record<string, string>) => Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256')
    .update(JSON.stringify([pool.clusters, sorted(pool.summaries), sorted(pool.assignment)]))
    .digest('hex');
}

export class PoolKeeper {
  private latest: ClusterPool | undefined;
  /** Pools given by the search or made here, by content: a step holding one of them holds an older copy of `latest`. */
  private readonly known = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();

  /** Clusters `tasks` from the newest pool (returned as `base`), after any clustering already under way. */
  cluster(given: ClusterPool | undefined, tasks: ClueTask[], ask: AskJson): Promise<ClueOutcome & { base: ClusterPool }> {
    const run = async () => {
      if (given && !this.known.has(contentOf(given))) {
        this.latest = given;
        this.known.add(contentOf(given));
      }
      const base = this.latest ?? emptyPool();
      const outcome = await clusterTasks(base, tasks, ask);
      if (outcome.source === 'model') {
        this.latest = outcome.pool;
        this.known.add(contentOf(outcome.pool));
      }
      return { ...outcome, base };
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
