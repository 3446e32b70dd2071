// What a worker sends back is a claim, checked against the job before anything uses it. A reply without a result is
// the worker's failure, never the program's (only an executor decides a program failed: its job killed workers).
// A result must be this evaluation's — this program, this split, exactly the job's tasks in their worlds, each once —
// and its statistics are computed here from its tasks, never taken from the worker. A rogue worker can still lie
// about a task's reward; it cannot drop tasks, add some, or score what it did not report.
import { ToolchainError } from '../../sandbox/toolchain-error.ts';
import type { Environment, World } from '../environment/contract.ts';
import { type EvaluationResult, sourceOf } from '../evaluate/evaluate.ts';
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
  // Scenarios, the environment's info and every statistic come from here; the worker's say nothing.
  const tasks = result.tasks.map(({ source: _claimed, ...t }) => ({ ...t, scenario: env.scenario(t.taskId), ...sourceOf(env, t.taskId) }));
  const stats = summarize(tasks, result.worlds, mergeUsage(result.worlds.map((w) => w.usage)));
  return { ...result, env: env.info(), tasks, stats, score: stats.score };
}
