// CluE's cluster pool as plain data: clusters of tasks by scenario (what the task is about, in the model's words,
// not the dataset's label), kept across steps. The cluster manager's operations are applied here, and the pool's
// limits hold whatever the model replied: at most MAX_CLUSTERS clusters, none analysed with fewer than
// MIN_TASKS tasks.
import { tokenize } from '../../../memo-programs/lib/tokenize.ts';
import { keyedObject } from '../../../foundation/keyed-object.ts';

export const MAX_CLUSTERS = 7;
export const MIN_TASKS = 2;

export interface PoolCluster {
  id: string;
  label: string;
  description: string;
}

export interface ClusterPool {
  clusters: PoolCluster[];
  /** One short scenario summary per task ever summarised (a task is summarised once, then reused). */
  summaries: Record<string, string>;
  /** The latest cluster of each task. */
  assignment: Record<string, string>;
}

export type PoolOperation =
  | { op: 'create'; id: string; label: string; description: string }
  | { op: 'merge'; clusters: string[]; into: string; label?: string; description?: string }
  | { op: 'split'; cluster: string; into: PoolCluster[] }
  | { op: 'relabel'; cluster: string; label: string; description?: string };

export const emptyPool = (): ClusterPool => ({ clusters: [], summaries: keyedObject(), assignment: keyedObject() });

const ID = /^[a-z0-9][a-z0-9-]{0,39}$/;
/** A cluster id the model wrote, as a safe short name (ids reach the journal and the viewer). */
export function clusterId(raw: string): string {
  const id = raw
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return ID.test(id) ? id : 'cluster';
}

const clipLabel = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 80);
const clipDescription = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 400);

export interface ApplyResult {
  pool: ClusterPool;
  /** Operations that could not be applied, and limits that had to be enforced, in words. */
  notes: string[];
}

/**
 * Applies the manager's operations and assignment for this step's tasks. Tasks the reply left out keep their
 * earlier cluster when it still exists, else join the cluster whose tasks' summaries share most words with theirs.
 */
export function applyOperations(pool: ClusterPool, ops: PoolOperation[], assign: Record<string, string>, tasks: string[], summaries: Record<string, string>): ApplyResult {
  const notes: string[] = [];
  const clusters = new Map(pool.clusters.map((c) => [c.id, { ...c }]));
  const renamed = new Map<string, string>();
  const unique = (want: string) => {
    let id = clusterId(want);
    for (let i = 2; clusters.has(id); i++) id = `${clusterId(want).slice(0, 36)}-${i}`;
    return id;
  };
  for (const op of ops) {
    if (op.op === 'create') {
      const id = unique(op.id);
      // A create whose id is taken gets a fresh id; assignments to the id keep meaning the cluster that had it.
      clusters.set(id, { id, label: clipLabel(op.label), description: clipDescription(op.description) });
    } else if (op.op === 'merge') {
      const into = clusterId(op.into);
      const from = op.clusters.map(clusterId).filter((id) => clusters.has(id));
      const target = clusters.get(into) ?? (from[0] ? clusters.get(from[0]) : undefined);
      if (!target) {
        notes.push(`merge into ${into}: none of its clusters exist`);
        continue;
      }
      for (const id of from.filter((x) => x !== target.id)) {
        clusters.delete(id);
        renamed.set(id, target.id);
      }
      if (op.label) target.label = clipLabel(op.label);
      if (op.description) target.description = clipDescription(op.description);
    } else if (op.op === 'split') {
      const id = clusterId(op.cluster);
      if (!clusters.has(id) || op.into.length < 2) {
        notes.push(`split of ${id}: ${clusters.has(id) ? 'needs two parts or more' : 'no such cluster'}`);
        continue;
      }
      clusters.delete(id);
      for (const part of op.into) {
        const pid = unique(part.id);
        clusters.set(pid, { id: pid, label: clipLabel(part.label), description: clipDescription(part.description) });
      }
    } else {
      const c = clusters.get(clusterId(op.cluster));
      if (!c) {
        notes.push(`relabel of ${clusterId(op.cluster)}: no such cluster`);
        continue;
      }
      c.label = clipLabel(op.label);
      if (op.description) c.description = clipDescription(op.description);
    }
  }
  const follow = (id: string) => {
    let at = id;
    for (let hops = 0; renamed.has(at) && hops < 100; hops++) at = renamed.get(at) as string;
    return at;
  };
  const allSummaries = keyedObject([...Object.entries(pool.summaries), ...Object.entries(summaries)]);
  const assignment = keyedObject<string>();
  const left: string[] = [];
  for (const task of tasks) {
    // Task ids are data: only a task's own entry counts, never what an object inherits under its name.
    const asked = Object.hasOwn(assign, task) ? assign[task] : undefined;
    const before = Object.hasOwn(pool.assignment, task) ? pool.assignment[task] : undefined;
    const wanted = asked !== undefined ? follow(clusterId(asked)) : undefined;
    const earlier = before !== undefined ? follow(before) : undefined;
    const id = [wanted, earlier].find((x) => x !== undefined && clusters.has(x));
    if (id) assignment[task] = id;
    else left.push(task);
  }
  if (left.length && clusters.size === 0) clusters.set('all', { id: 'all', label: 'all tasks', description: 'every task of the evaluation' });
  if (left.length) notes.push(`${left.length} task(s) placed by their summaries' words`);
  for (const task of left) assignment[task] = nearest(task, [...clusters.keys()], assignment, allSummaries);
  enforceLimits(clusters, assignment, allSummaries, notes);
  const kept = [...clusters.values()].filter((c) => Object.values(assignment).includes(c.id) || !tasks.length);
  // Clusters no task of this step belongs to stay in the pool for later steps, within the pool's size.
  const idle = [...clusters.values()].filter((c) => !kept.includes(c)).slice(0, Math.max(0, MAX_CLUSTERS - kept.length));
  return {
    pool: {
      clusters: [...kept, ...idle],
      summaries: allSummaries,
      assignment: { ...Object.fromEntries(Object.entries(pool.assignment).filter(([, c]) => clusters.has(follow(c))).map(([t, c]) => [t, follow(c)])), ...assignment },
    },
    notes,
  };
}

function words(text: string): Set<string> {
  return new Set(tokenize(text, { minLength: 3 }));
}

function overlap(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n / (Math.sqrt(a.size * b.size) || 1);
}

/** The cluster (among `candidates`) whose assigned tasks' summaries are closest to this task's summary. */
function nearest(task: string, candidates: string[], assignment: Record<string, string>, summaries: Record<string, string>): string {
  const mine = words(summaries[task] ?? task);
  let best = candidates[0] as string;
  let bestScore = -1;
  for (const id of candidates) {
    const members = Object.entries(assignment).filter(([t, c]) => c === id && t !== task);
    const theirs = words(members.map(([t]) => summaries[t] ?? '').join(' '));
    const score = overlap(mine, theirs) + members.length * 1e-6;
    if (score > bestScore) [best, bestScore] = [id, score];
  }
  return best;
}

/** At most MAX_CLUSTERS clusters with tasks, each with at least MIN_TASKS of them (when there are enough tasks). */
function enforceLimits(clusters: Map<string, PoolCluster>, assignment: Record<string, string>, summaries: Record<string, string>, notes: string[]): void {
  const sizes = () => {
    const n = new Map<string, number>();
    for (const c of Object.values(assignment)) n.set(c, (n.get(c) ?? 0) + 1);
    return [...n.entries()].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
  };
  for (let s = sizes(); s.length > 1 && ((s[0]?.[1] ?? 0) < MIN_TASKS || s.length > MAX_CLUSTERS); s = sizes()) {
    const [small] = s[0] as [string, number];
    const others = s.map(([id]) => id).filter((id) => id !== small);
    for (const [task, c] of Object.entries(assignment)) if (c === small) assignment[task] = nearest(task, others, assignment, summaries);
    notes.push(`${small} folded into the nearest cluster (${s.length > MAX_CLUSTERS ? `more than ${MAX_CLUSTERS} clusters` : `fewer than ${MIN_TASKS} tasks`})`);
    clusters.delete(small);
  }
}
