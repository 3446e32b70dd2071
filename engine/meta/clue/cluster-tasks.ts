// CluE's clustering step: each evaluated task gets a short model-written scenario summary (once per task, then
// reused from the pool), the cluster manager updates the persistent pool and assigns this step's tasks, and the
// pool's limits are enforced. Tasks the pool has already summarised and assigned (the same evaluation sample seen
// again, by a step in flight or a later one) cost no call: the pool's clusters stand. When the step's evidence is
// too small, or a reply cannot be used, the tasks keep the environment's metadata groups and the reason is said:
// clustering never costs a step its child.
import { z } from 'zod';
import { fillPrompt, readPrompt } from '../../../foundation/llm/prompt-file.ts';
import { applyOperations, type ClusterPool, clusterId, MAX_CLUSTERS, MIN_TASKS, type PoolOperation } from './pool.ts';
import { keyedObject } from '../../../foundation/keyed-object.ts';

/** One evaluated task as the clustering sees it. */
export interface ClueTask {
  taskId: string;
  /** The environment's metadata group (site, template, category): the fallback. */
  scenario: string;
  /** What the task asks (its question or instruction), clipped. */
  text: string;
}

/** Asks the model and parses its reply (retrying as the caller's agent does); throws when no reply can be used. */
export type AskJson = <T>(purpose: string, user: string, schema: z.ZodType<T>) => Promise<T>;

export interface ClueOutcome {
  /** The pool after this step (unchanged when the metadata groups were used). */
  pool: ClusterPool;
  /** This step's group per task: a pool cluster's label, or the metadata scenario. */
  groupOf: Record<string, string>;
  source: 'model' | 'metadata';
  /** Why the metadata groups were used, or what had to be enforced on the model's reply. */
  notes: string[];
}

/** Fewer tasks than this and per-cluster analysis has nothing to compare: the metadata groups stay. */
export const MIN_EVIDENCE_TASKS = 2 * MIN_TASKS;
const SUMMARY_BATCH = 40;
const MAX_MANAGED_TASKS = 200;
const TEXT_CHARS = 500;

const prompt = (name: string) => readPrompt(import.meta.url, `./prompts/${name}.txt`);

const SummariesReply = z.object({
  summaries: z.array(z.object({ taskId: z.string().max(200), summary: z.string().max(2000) })).max(400),
});
const ClusterFields = {
  id: z.string().max(200),
  label: z.string().max(500),
  description: z.string().max(2000).default(''),
};
const ManagerReply = z.object({
  operations: z
    .array(
      z.discriminatedUnion('op', [
        z.object({ op: z.literal('create'), ...ClusterFields }),
        z.object({
          op: z.literal('merge'),
          clusters: z.array(z.string().max(200)).max(50),
          into: z.string().max(200),
          label: z.string().max(500).optional(),
          description: z.string().max(2000).optional(),
        }),
        z.object({
          op: z.literal('split'),
          cluster: z.string().max(200),
          into: z.array(z.object(ClusterFields)).max(MAX_CLUSTERS),
        }),
        z.object({
          op: z.literal('relabel'),
          cluster: z.string().max(200),
          label: z.string().max(500),
          description: z.string().max(2000).optional(),
        }),
      ]),
    )
    .max(50)
    .default([]),
  assign: z.record(z.string().max(200), z.string().max(200)).default({}),
});

const metadata = (pool: ClusterPool, tasks: ClueTask[], why: string): ClueOutcome => ({
  pool,
  groupOf: keyedObject(tasks.map((t) => [t.taskId, t.scenario])),
  source: 'metadata',
  notes: [why],
});

async function summarise(tasks: ClueTask[], ask: AskJson): Promise<Record<string, string>> {
  const out = keyedObject<string>();
  for (let i = 0; i < tasks.length; i += SUMMARY_BATCH) {
    const batch = tasks.slice(i, i + SUMMARY_BATCH);
    const blocks = batch.map((t) => `taskId: ${t.taskId}\n${t.text.slice(0, TEXT_CHARS) || '(no text)'}`).join('\n\n');
    const reply = await ask(
      'scenario-summaries',
      fillPrompt(prompt('summarize'), { count: batch.length, tasks: blocks }),
      SummariesReply,
    );
    const wanted = new Set(batch.map((t) => t.taskId));
    for (const s of reply.summaries)
      if (wanted.has(s.taskId) && s.summary.trim()) out[s.taskId] = s.summary.replace(/\s+/g, ' ').trim().slice(0, 300);
  }
  return out;
}

function renderPool(pool: ClusterPool): string {
  if (!pool.clusters.length) return '(empty: this is the first step)';
  const counts = new Map<string, number>();
  for (const c of Object.values(pool.assignment)) counts.set(c, (counts.get(c) ?? 0) + 1);
  return pool.clusters.map((c) => `- ${c.id} [${counts.get(c.id) ?? 0}]: ${c.label} — ${c.description}`).join('\n');
}

/** Each task's group as shown to the model: its cluster's label (two clusters labelled alike stay apart by id). */
function groupsOf(pool: ClusterPool, ids: string[]): Record<string, string> {
  const labels = pool.clusters.map((c) => c.label || c.id);
  const label = new Map(
    pool.clusters.map((c, i) => [
      c.id,
      labels.indexOf(labels[i] as string) === labels.lastIndexOf(labels[i] as string)
        ? (labels[i] as string)
        : `${labels[i]} (${c.id})`,
    ]),
  );
  return keyedObject(
    ids.map((id) => [
      id,
      label.get((Object.hasOwn(pool.assignment, id) ? pool.assignment[id] : undefined) ?? '') ?? clusterId(id),
    ]),
  );
}

/** Every task already summarised and assigned to a cluster the pool still has: nothing for the model to do. */
function alreadyClustered(pool: ClusterPool, tasks: ClueTask[]): boolean {
  const ids = new Set(pool.clusters.map((c) => c.id));
  return tasks.every(
    (t) =>
      Object.hasOwn(pool.summaries, t.taskId) &&
      Object.hasOwn(pool.assignment, t.taskId) &&
      ids.has(pool.assignment[t.taskId] as string),
  );
}

/** Clusters this step's tasks with the model, within the pool's limits; the metadata groups when it cannot. */
export async function clusterTasks(pool: ClusterPool, tasks: ClueTask[], ask: AskJson): Promise<ClueOutcome> {
  if (tasks.length < MIN_EVIDENCE_TASKS)
    return metadata(pool, tasks, `${tasks.length} scored task(s): too few to cluster, metadata groups kept`);
  const ids = tasks.map((t) => t.taskId);
  if (alreadyClustered(pool, tasks))
    return {
      pool,
      groupOf: groupsOf(pool, ids),
      source: 'model',
      notes: ['every task was already summarised and clustered: the pool stands, no model call'],
    };
  try {
    const fresh = await summarise(
      tasks.filter((t) => !Object.hasOwn(pool.summaries, t.taskId)),
      ask,
    );
    const summaries = keyedObject([...Object.entries(pool.summaries), ...Object.entries(fresh)]);
    const notes: string[] = [];
    const unsummarised = tasks.filter((t) => summaries[t.taskId] === undefined);
    if (unsummarised.length)
      notes.push(`${unsummarised.length} task(s) had no summary in the reply: their metadata group stands in`);
    for (const t of unsummarised) summaries[t.taskId] = `${t.scenario}: ${t.text.slice(0, 120)}`;
    const managed = tasks.slice(0, MAX_MANAGED_TASKS);
    const lines = managed.map((t) => `${t.taskId}: ${summaries[t.taskId]}`).join('\n');
    const reply = await ask(
      'cluster-manager',
      fillPrompt(prompt('manage'), {
        maxClusters: MAX_CLUSTERS,
        minTasks: MIN_TASKS,
        poolSize: pool.clusters.length,
        pool: renderPool(pool),
        count: managed.length,
        tasks: lines,
      }),
      ManagerReply,
    );
    const applied = applyOperations(pool, reply.operations as PoolOperation[], reply.assign, ids, summaries);
    return {
      pool: applied.pool,
      groupOf: groupsOf(applied.pool, ids),
      source: 'model',
      notes: [...notes, ...applied.notes],
    };
  } catch (err) {
    return metadata(pool, tasks, `clustering failed, metadata groups kept: ${(err as Error).message.slice(0, 300)}`);
  }
}
