// Routing by task scenario: a task's kind, read from its instruction, picks extra stages that only that kind of
// task runs (a "when" task a time focus, a task about two people per-entity queries).
import { asksWhen } from './time-focus.ts';
import { type RetrievalState, named, type Stage } from './retrieval-state.ts';
import type { UnitStore } from './unit-store.ts';

/** What a task asks for, as far as its wording tells. */
export type TaskKind = 'time' | 'entities' | 'count' | 'reason' | 'other';

/** The kind of a task: asks when, names two or more known names, asks how many, asks why, or other. */
export function taskKind(instruction: string, store: UnitStore): TaskKind {
  if (asksWhen(instruction)) return 'time';
  if (store.knownNames(instruction).length >= 2 || /\bboth\b/i.test(instruction)) return 'entities';
  if (/\bhow many\b|\bhow often\b|\bcount\b/i.test(instruction)) return 'count';
  if (/\bwhy\b|\breason\b/i.test(instruction)) return 'reason';
  return 'other';
}

/**
 * Stage: runs the stages listed under the task's kind (none when its kind is not listed).
 * @reads queries, store, and whatever the routed stages read
 * @writes trace (appends "<kind>:<stage name>" per routed stage), and whatever the routed stages write
 */
export function routeByKind(routes: Partial<Record<TaskKind, Stage[]>>): Stage {
  return named('routeByKind', async (state: RetrievalState) => {
    const kind = taskKind(state.queries[0]?.text ?? '', state.store);
    for (const stage of routes[kind] ?? []) {
      await stage(state);
      state.trace.push(`${kind}:${stage.stageName ?? 'stage'}`);
    }
  });
}
