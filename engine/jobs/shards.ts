// One evaluation split by world into several jobs, so an evaluation uses every worker instead of one (a search with
// one evaluation in flight, `eval` of one program), and many evaluations spread evenly over workers. Worlds are
// independent (each starts a fresh sandbox with the same seed), so the merged result equals the unsplit one: tasks
// and world records in the split's world order, statistics recomputed from them. Tasks of one world are never split:
// a program may keep state across its retrieves, and a world's tasks must see it as one evaluation would.
import { createReadStream, lstatSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { EvaluationResult } from '../evaluate/evaluate.ts';
import { APPEND } from '../evaluate/evidence.ts';
import { mergeUsage, summarize } from '../evaluate/stats.ts';

/** Shards per evaluation at most: more buys no balance and costs a sandbox start each. */
export const MAX_SHARDS = 16;

/** One job's part of an evaluation: its worlds, in the split's order, and how many tasks they hold. */
export interface Shard {
  worldIds: string[];
  tasks: number;
}

/**
 * Worlds in at most `shards` groups of about equal task counts (largest world first, each to the lightest group),
 * each group in the split's order. Worlds without a wanted task are left out; one group means no split.
 */
export function planShards(worlds: { id: string; tasks: { taskId: string }[] }[], shards: number, wanted?: ReadonlySet<string>): Shard[] {
  const sized = worlds
    .map((w, order) => ({ id: w.id, order, tasks: wanted ? w.tasks.filter((t) => wanted.has(t.taskId)).length : w.tasks.length }))
    .filter((w) => w.tasks > 0);
  const n = Math.max(1, Math.min(Math.floor(shards), MAX_SHARDS, sized.length));
  const groups = Array.from({ length: n }, () => ({ tasks: 0, worlds: [] as typeof sized }));
  for (const w of [...sized].sort((a, b) => b.tasks - a.tasks || a.order - b.order)) {
    const lightest = groups.reduce((best, g) => (g.tasks < best.tasks ? g : best));
    lightest.tasks += w.tasks;
    lightest.worlds.push(w);
  }
  return groups.filter((g) => g.worlds.length > 0).map((g) => ({ worldIds: g.worlds.sort((a, b) => a.order - b.order).map((w) => w.id), tasks: g.tasks }));
}

/** The shards' results as one evaluation: what evaluating every world in one job returns, but the wall time. */
export function mergeShardResults(parts: EvaluationResult[], worldOrder: string[], elapsedMs: number): EvaluationResult {
  const first = parts[0];
  if (!first) throw new Error('no shard results to merge');
  const rank = new Map(worldOrder.map((id, i) => [id, i]));
  const byWorld = (a: { world: string }, b: { world: string }) => (rank.get(a.world) ?? 0) - (rank.get(b.world) ?? 0);
  // A stable sort keeps each world's tasks in the order its shard ran them.
  const tasks = parts.flatMap((p) => p.tasks).sort(byWorld);
  const worlds = parts.flatMap((p) => p.worlds).sort(byWorld);
  const stats = summarize(tasks, worlds, mergeUsage(worlds.map((w) => w.usage)));
  return { program: first.program, env: first.env, split: first.split, score: stats.score, stats, tasks, worlds, elapsedMs };
}

const LINE_FILES = ['tasks.jsonl', 'worlds.jsonl'];

/**
 * Moves a shard's evidence into the evaluation's folder: its line files appended to the folder's (moved there whole
 * when the folder has none yet), its images moved in (an image already there is the same image). Only regular files
 * are read; the shard's summary is not kept.
 */
export async function mergeShardEvidence(shardDir: string, into: string): Promise<void> {
  for (const name of LINE_FILES) {
    const from = join(shardDir, name);
    if (!isFile(from)) continue;
    const to = join(into, name);
    // Nothing there, not even a link: the first shard's lines need no copy.
    if (!lstatSync(to, { throwIfNoEntry: false })) {
      renameSync(from, to);
      continue;
    }
    // Appends never follow a link planted where an evidence file goes, as the evidence writer's own.
    const target = await open(to, APPEND);
    await pipeline(createReadStream(from), target.createWriteStream());
  }
  const images = join(shardDir, 'images');
  if (!isDir(images)) return;
  mkdirSync(join(into, 'images'), { recursive: true });
  for (const e of readdirSync(images, { withFileTypes: true })) {
    if (!e.isFile() || isFile(join(into, 'images', e.name))) continue;
    renameSync(join(images, e.name), join(into, 'images', e.name));
  }
}

const isFile = (p: string) => lstatSync(p, { throwIfNoEntry: false })?.isFile() === true;
const isDir = (p: string) => lstatSync(p, { throwIfNoEntry: false })?.isDirectory() === true;
