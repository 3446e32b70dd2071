// The parent as both agents see it, for meta-agent tests: a one-file parent program scored on the given tasks, an offline environment,
// and whatever the test adds on top.
import type { EvaluationResult, TaskRecord } from '../../engine/evaluate/evaluate.ts';
import type { ParentPart, ParentView } from '../../engine/meta/types.ts';

/** Both agents' views of a parent at once: what a test hands either agent. */
export type ParentContext = ParentView<ParentPart>;

/** A scored task of the parent's latest evaluation. */
export function scoredTask(taskId: string, scenario: string, reward: number): TaskRecord {
  return { taskId, world: 'w', scenario, reward, success: reward >= 0.5, metrics: {}, payloadChars: 0, payloadImages: 0, truncated: false, retrieveMs: 0, agentMs: 0, cached: false } as TaskRecord;
}

export function parentContext(tasks: TaskRecord[], extra: Partial<ParentContext> = {}): ParentContext {
  return {
    node: 'seed-a',
    files: { 'index.ts': "import { defineMemo } from 'automemo/contract';\nexport default defineMemo({ update() {}, retrieve() { return { text: '', images: [] }; } });\n" },
    q: 0.5,
    evaluations: 1,
    evaluation: { score: 0.5, tasks } as unknown as EvaluationResult,
    payloads: new Map(),
    env: { name: 'qa', mode: 'offline', reward: 'evidence recall', budget: { maxChars: 2000, maxImages: 0 }, agentId: 'checker', deterministic: true, data: {} },
    explain: (id) => ({ question: `question ${id}`, gold: [] }),
    envDescription: 'questions',
    step: 1,
    seed: 0,
    ...extra,
  };
}
