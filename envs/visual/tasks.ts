// The visual catalog as the engine's tasks and agent: each rendered instance becomes an EnvTask (its image, a line
// describing it, the tools it may use; the answer and the correct procedure stay in `truth`), and a visual agent
// becomes a TaskAgent whose steps carry the images its tools produced.
import type { EnvTask, TaskAgent } from '../../engine/environment/task-spec.ts';
import { catalogAgent, memoryUse } from '../catalog-agent.ts';
import { type AgentRun, MAX_TURNS, type VisualAgent } from './agents/agent.ts';
import type { CatalogEntry } from './catalog.ts';
import type { Answer } from './task.ts';
import type { ToolWorld } from './tools/types.ts';

/** What the checker and the oracle need of a task; never shown to programs. */
export interface VisualTruth {
  answer: Answer;
  /** The template's correct tool sequence for this instance. */
  oracle: string[];
  quirk: string;
}

export function visualTask(e: CatalogEntry, tools: string[]): EnvTask<VisualTruth> {
  const { task } = e;
  return {
    id: task.id,
    // The template stays out of what programs see: the domain is the family.
    scenario: `${task.family}/${task.template}`,
    domain: task.family,
    instruction: task.instruction,
    role: e.role,
    context: task.images.map((img, i) => `image ${i + 1}: ${img.width}×${img.height} px`).join('; '),
    images: task.images.map((img, i) => ({ bytes: img.png, mime: 'image/png', caption: `task image ${i + 1} (${img.width}×${img.height})` })),
    meta: { family: task.family, tools, maxTurns: MAX_TURNS },
    truth: { answer: task.answer, oracle: task.oracle, quirk: e.quirk },
  };
}

function steps(run: AgentRun) {
  return run.steps.map((s) => ({
    action: s.action,
    ...(s.thought ? { thought: s.thought } : {}),
    ...(s.result !== undefined ? { result: s.result } : {}),
    ...(s.error ? { error: s.error } : {}),
    ...(s.image ? { observation: { images: [{ bytes: s.image, mime: 'image/png' as const, caption: `result of ${s.action}` }] } } : {}),
  }));
}

/** The visual agent as the engine runs it: the rendered images and the tool world come from the catalog. */
export function visualTaskAgent(agent: VisualAgent, entries: ReadonlyMap<string, CatalogEntry>, world: ToolWorld): TaskAgent<VisualTruth> {
  return catalogAgent(agent, entries, async (e, task, memory) => {
    const run = await agent.run({ taskId: task.id, instruction: task.instruction, images: e.task.images }, memory, world);
    const use = memoryUse(run.memoryUse);
    return {
      ...(run.answer !== undefined ? { answer: run.answer } : {}),
      steps: steps(run),
      ...(run.tokens ? { tokens: run.tokens } : {}),
      note: use.note,
      metrics: { turns: run.steps.length, memoryReplay: use.replayed },
    };
  });
}
