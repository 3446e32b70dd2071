// The meta agent's guide to an environment built from tasks (task-environment.ts): what the spec says, completed
// from the tasks themselves where it is silent — the record shapes programs receive, and the `meta` fields the
// tasks actually carry (read from them, so the prompt names what is there, not what a description remembers).
import type { Json } from '../../memo-programs/contract.ts';
import type { EnvironmentGuide } from './contract.ts';
import type { EnvTask, TaskEnvironmentSpec } from './task-spec.ts';

/** Fields named in the guide: a catalog of a million tasks with odd keys must not make a million-line prompt. */
const MAX_META_FIELDS = 30;
const TASKS_READ = 2000;

/** Each `meta` field the tasks carry, with an example value (clipped). */
export function metaFields(tasks: readonly EnvTask<unknown>[]): string {
  const seen = new Map<string, Json>();
  for (const t of tasks.slice(0, TASKS_READ)) {
    for (const [k, v] of Object.entries(t.meta ?? {})) {
      if (seen.size >= MAX_META_FIELDS) break;
      if (!seen.has(k)) seen.set(k, v);
    }
  }
  if (seen.size === 0) return 'meta = {} (the tasks carry no meta)';
  return `meta = { ${[...seen].map(([k, v]) => `${k.slice(0, 60)}: ${JSON.stringify(v)?.slice(0, 60)}`).join(', ')} } (an example task's values)`;
}

export function taskGuide(spec: TaskEnvironmentSpec<unknown>, mode: 'offline' | 'model'): EnvironmentGuide {
  const schema =
    'update() gets one episode per update task, run without memory by the agent: taskId, domain, instruction, ' +
    'initial { text?, images }, steps [{ index, action, thought?, result?, error?, observation? { text?, images? } }] ' +
    '(one per agent turn, in order), answer?, outcome { reward, success, note (what the checker said, e.g. "answer ' +
    'accepted") }, and the task\'s meta. retrieve() gets a task before its run: taskId, domain, instruction, initial, ' +
    `and the same meta; never the answer, the outcome or the steps. Here: ${metaFields(spec.tasks)}.`;
  const reader =
    mode === 'offline'
      ? `the agent ${spec.agent.id} runs deterministic rules; the environment does not say how it reads a payload.`
      : `a model agent (${spec.agent.id}) gets the payload's text (and images) before its first turn.`;
  return {
    reward: spec.reward,
    schema,
    reader,
    agentAnswers: true,
    ...spec.guide,
    ...(spec.guide?.schema ? { schema: `${spec.guide.schema} ${metaFields(spec.tasks)}.` } : {}),
  };
}
