// A built-in execution agent as the engine runs it: the engine hands the agent an EnvTask; the built-in agents need
// the catalog's own entry for it (rendered images, a site and its database), found here by id.
import type { MemoryPayload } from '../memo-programs/contract.ts';
import type { AgentRun, EnvTask, TaskAgent } from '../engine/environment/task-spec.ts';

export interface BuiltinAgent {
  readonly id: string;
  readonly mode: 'offline' | 'model';
  readonly deterministic: boolean;
}

export function catalogAgent<E, T>(agent: BuiltinAgent, entries: ReadonlyMap<string, E>, run: (entry: E, task: EnvTask<T>, memory: MemoryPayload) => Promise<AgentRun>): TaskAgent<T> {
  return {
    id: agent.id,
    mode: agent.mode,
    deterministic: agent.deterministic,
    run(task, memory) {
      const entry = entries.get(task.id);
      if (!entry) throw new Error(`${agent.id} has no catalog entry for task ${task.id}`);
      return run(entry, task, memory);
    },
  };
}

/** How the built-in agents report their use of memory: a note, and 1 when they replayed a remembered procedure. */
export function memoryUse(use: string): { note: string; replayed: number } {
  return { note: `memory: ${use}`, replayed: use.startsWith('replayed') ? 1 : 0 };
}
