// CluE's pool as one meta agent keeps it through a run. Steps in flight each hold the pool as it was when they
// started; clustering them one after another from the newest pool lets a later step reuse what an earlier one just
// summarised and clustered (the same evaluation sample costs no second call) and keeps one step's new clusters from
// being overwritten by another's. A pool the keeper has never seen (a new run, or a resumed one read from the
// journal) starts its line afresh; a step given no pool continues the keeper's.
import { type AskJson, type ClueOutcome, type ClueTask, clusterTasks } from './cluster-tasks.ts';
import { type ClusterPool, emptyPool } from './pool.ts';

export class PoolKeeper {
  private latest: ClusterPool | undefined;
  /** Pools given by the search or made here: a step holding one of them holds an older copy of `latest`. */
  private readonly known = new WeakSet<ClusterPool>();
  private queue: Promise<unknown> = Promise.resolve();

  /** Clusters `tasks` from the newest pool (returned as `base`), after any clustering already under way. */
  cluster(given: ClusterPool | undefined, tasks: ClueTask[], ask: AskJson): Promise<ClueOutcome & { base: ClusterPool }> {
    const run = async () => {
      if (given && !this.known.has(given)) {
        this.latest = given;
        this.known.add(given);
      }
      const base = this.latest ?? emptyPool();
      const outcome = await clusterTasks(base, tasks, ask);
      if (outcome.source === 'model') {
        this.latest = outcome.pool;
        this.known.add(outcome.pool);
      }
      return { ...outcome, base };
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
