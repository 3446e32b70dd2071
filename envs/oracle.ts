// The oracle figure of the built-in benchmarks: a payload holding the correct procedure of a training sibling (same
// scenario, a task that is not test), the best any memory of those episodes could give. For tests and benches.
import type { MemoryPayload } from '../memo-programs/contract.ts';
import type { EnvTask } from '../engine/environment/task-spec.ts';

export function siblingOraclePayload(tasks: readonly EnvTask<{ oracle: string[] }>[], taskId: string): MemoryPayload {
  const task = tasks.find((t) => t.id === taskId);
  if (!task) throw new Error(`no task ${taskId}`);
  const sibling = tasks.find((t) => t.role !== undefined && t.role !== 'test' && t.scenario === task.scenario) ?? task;
  const lines = [`Task: ${sibling.instruction}`, 'Outcome: SUCCESS', 'Actions:', ...(sibling.truth?.oracle ?? []).map((a, i) => `  ${i + 1}. ${a}`)];
  return { text: lines.join('\n'), images: [] };
}
