// What a worker sends back is a claim, checked against the job before anything uses it. A reply without a result is
// the worker's failure, never the program's (only an executor decides a program failed: its job killed workers).
// A result must be this evaluation's — run under the job's limits, of this program, this split, exactly the job's
// tasks in their worlds, each once —
// and its statistics are computed here from its tasks, never taken from the worker. A rogue worker can still lie
// about a task's reward; it cannot drop tasks, add some, or score what it did not report. Its evidence must be its
// result's (checkEvidence), or none of it is kept.
import { join } from 'node:path';
import { z } from 'zod';
import { ToolchainError } from '../../sandbox/toolchain-error.ts';
import type { Environment, World } from '../environment/contract.ts';
import { type EvaluationResult, sourceOf } from '../evaluate/evaluate.ts';
import type { SandboxLimits } from '../../sandbox/isolate.ts';
import { readEvidenceLines } from '../evaluate/evidence.ts';
import { mergeUsage, summarize } from '../evaluate/stats.ts';
import type { EvalJob, JobOutput } from './job.ts';

/** The job's tasks by id, with their world: the split's worlds (the job's, when it names some), its sample's tasks. */
export function expectedTasks(job: EvalJob, worlds: World[]): { tasks: Map<string, string>; worlds: string[] } {
  const wanted = job.taskIds ? new Set(job.taskIds) : undefined;
  const tasks = new Map<string, string>();
  const kept: string[] = [];
  for (const w of worlds) {
    if (job.worldIds && !job.worldIds.includes(w.id)) continue;
    const ids = w.tasks.map((t) => t.taskId).filter((id) => !wanted || wanted.has(id));
    // An evaluation of a sample skips the worlds it leaves without tasks.
    if (wanted && ids.length === 0) continue;
    kept.push(w.id);
    for (const id of ids) tasks.set(id, w.id);
  }
  return { tasks, worlds: kept };
}

/** How the limits a reply ran under differ from those the job asked for ("callCpuMs 1, the job's 10000"), or undefined. */
function otherLimits(asked: Partial<SandboxLimits> | undefined, ran: SandboxLimits | undefined): string | undefined {
  if (!ran) return 'it does not say which';
  const keys = ['heapMb', 'callCpuMs', 'callWallMs', 'loadMs'] as const;
  const k = keys.find((name) => asked?.[name] !== undefined && asked[name] !== ran[name]);
  return k ? `${k} ${ran[k]}, the job's ${asked?.[k]}` : undefined;
}

/** Why `result` is not the evaluation `job` asked for, or undefined. */
function mismatch(job: EvalJob, result: EvaluationResult, expected: ReturnType<typeof expectedTasks>): string | undefined {
  if (result.program.hash !== job.program.hash) return `it is of program ${String(result.program.hash).slice(0, 12)}, the job's ${job.program.hash.slice(0, 12)}`;
  if (result.split !== job.split) return `it is of the ${result.split} split, the job's ${job.split}`;
  const seen = new Set<string>();
  for (const t of result.tasks) {
    const world = expected.tasks.get(t.taskId);
    if (world === undefined) return `it scores task ${JSON.stringify(t.taskId.slice(0, 200))}, which the job does not hold`;
    if (world !== t.world) return `it puts task ${JSON.stringify(t.taskId.slice(0, 200))} in world ${JSON.stringify(t.world.slice(0, 200))}`;
    if (seen.has(t.taskId)) return `it scores task ${JSON.stringify(t.taskId.slice(0, 200))} twice`;
    seen.add(t.taskId);
  }
  if (seen.size !== expected.tasks.size) return `it has ${seen.size} of the job's ${expected.tasks.size} tasks`;
  const worlds = result.worlds.map((w) => w.world);
  if (worlds.length !== expected.worlds.length || worlds.some((w) => !expected.worlds.includes(w)) || new Set(worlds).size !== worlds.length) {
    return `its worlds (${worlds.length}) are not the job's (${expected.worlds.length})`;
  }
  return undefined;
}

/**
 * The evaluation a worker's output holds, checked. `worlds`: the split's worlds, when the caller listed them (an
 * executor with several slots; one slot is this process or its own local worker, whose result is not re-checked).
 * A missing or foreign result is a ToolchainError naming the worker. A program failure the executor decided is
 * left to the caller.
 */
export function checkedResult(job: EvalJob, out: JobOutput, env: Environment, worlds: World[] | undefined): EvaluationResult {
  const result = out.result;
  if (!result) throw new ToolchainError('workers', `${out.worker} returned no result for ${job.key}`);
  if (!worlds) return result;
  const wrong = mismatch(job, result, expectedTasks(job, worlds));
  if (wrong) throw new ToolchainError('workers', `${out.worker} returned a result that is not this evaluation's (${job.key}): ${wrong}`);
  // Which job it ran (its digest, compared when the reply arrived: job.ts parseJobOutput), under which limits.
  if (out.job === undefined) throw new ToolchainError('workers', `${out.worker} returned a result for ${job.key} that does not say which job it ran`);
  const other = otherLimits(job.limits, out.limits);
  if (other) throw new ToolchainError('workers', `${out.worker} ran ${job.key} under other limits (${other}): start workers whose limits are the search's`);
  // Scenarios, the environment's info and every statistic come from here; the worker's say nothing.
  const tasks = result.tasks.map(({ source: _claimed, ...t }) => ({ ...t, scenario: env.scenario(t.taskId), ...sourceOf(env, t.taskId) }));
  const stats = summarize(tasks, result.worlds, mergeUsage(result.worlds.map((w) => w.usage)));
  return { ...result, env: env.info(), tasks, stats, score: stats.score };
}

const TaskLineSchema = z.looseObject({ taskId: z.string(), world: z.string().optional(), reward: z.number().nullable().optional(), success: z.boolean().optional() });
const WorldLineSchema = z.looseObject({ world: z.string() });

/**
 * Evidence a worker sent, checked against the result it came with (already checked as this evaluation's) before it
 * is kept: every task line one of the result's tasks, once, in its world, with its reward and success; every
 * world line one of its worlds, once; no line unreadable. Anything else is the worker's failure, never the
 * program's: a rogue worker's lines never replace an evaluation's own.
 */
export function checkEvidence(dir: string, result: EvaluationResult, worker: string): void {
  const refuse = (why: string) => {
    throw new ToolchainError('workers', `${worker} returned evidence that is not its result's: ${why}`);
  };
  const tasks = new Map(result.tasks.map((t) => [t.taskId, t]));
  const lines = readEvidenceLines(join(dir, 'tasks.jsonl'), TaskLineSchema);
  if (lines.unreadable || lines.problems.length) refuse(lines.problems[0] ?? 'unreadable task lines');
  const seen = new Set<string>();
  for (const line of lines.records) {
    const t = tasks.get(line.taskId);
    const id = JSON.stringify(line.taskId.slice(0, 200));
    if (!t) refuse(`a line of task ${id}, which the result does not hold`);
    else if (seen.has(line.taskId)) refuse(`two lines of task ${id}`);
    else if ((line.world !== undefined && line.world !== t.world) || (line.reward ?? null) !== t.reward || (line.success !== undefined && line.success !== t.success)) {
      refuse(`the line of task ${id} says another world, reward or success than the result`);
    }
    seen.add(line.taskId);
  }
  const worlds = new Set(result.worlds.map((w) => w.world));
  const worldLines = readEvidenceLines(join(dir, 'worlds.jsonl'), WorldLineSchema);
  if (worldLines.unreadable || worldLines.problems.length) refuse(worldLines.problems[0] ?? 'unreadable world lines');
  const seenWorlds = new Set<string>();
  for (const line of worldLines.records) {
    if (!worlds.has(line.world) || seenWorlds.has(line.world)) refuse(`a line of world ${JSON.stringify(line.world.slice(0, 200))}, which the result does not hold once`);
    seenWorlds.add(line.world);
  }
}
