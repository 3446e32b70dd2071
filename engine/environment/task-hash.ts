// Content hashes of tasks: what a task shows (instruction, context, images, meta), where it stands (scenario, role)
// and what it is checked against (its truth, when that is plain data). A changed task names another collection of
// update episodes, so a stored episode is never reused for a task it was not run on.
import { createHash } from 'node:crypto';
import type { EnvTask, TaskRole } from './task-spec.ts';

/** The truth as JSON when it is plain data; a truth that is not (a class, a cycle) is left to the code hash. */
function truthText(truth: unknown): string {
  try {
    return JSON.stringify(truth) ?? '';
  } catch {
    return '(not JSON)';
  }
}

/** 32 hex digits over everything about the task, its role included. */
export function hashTask(task: EnvTask<unknown>, role: TaskRole): string {
  const h = createHash('sha256');
  h.update(
    JSON.stringify([
      task.id,
      task.scenario,
      task.domain ?? null,
      task.instruction,
      role,
      task.context ?? null,
      task.meta ?? null,
      truthText(task.truth),
      ...(task.world !== undefined ? [task.world] : []),
    ]),
  );
  for (const image of task.images ?? []) {
    h.update(`\u0000image ${image.mime} ${JSON.stringify(image.caption ?? null)} ${image.bytes.byteLength}\u0000`);
    h.update(image.bytes);
  }
  return h.digest('hex').slice(0, 32);
}

/** 16 hex digits over the hashes of every task, in order. */
export function hashCatalog(taskHashes: readonly string[]): string {
  return createHash('sha256').update(taskHashes.join('\n')).digest('hex').slice(0, 16);
}
