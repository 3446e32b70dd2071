// Turning agent runs into the contract's records: a finished run becomes an EpisodeRecorder (what `update`
// learns from), a task before its run a PartialRecorder (what `retrieve` sees). Images go into the host's image
// store; records carry only references.
import type { EpisodeRecorder, ImageRef, PartialRecorder, Step } from '../../memo-programs/contract.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import { MAX_TURNS, type AgentRun } from './agents/agent.ts';
import type { CheckResult } from './check.ts';
import type { VisualTask } from './task.ts';

export async function taskImages(task: VisualTask, store: ImageStore): Promise<ImageRef[]> {
  return Promise.all(task.images.map((img, i) => store.put(img.png, { mime: 'image/png', caption: `task image ${i + 1} (${img.width}×${img.height})` })));
}

function describeImages(task: VisualTask): string {
  return task.images.map((img, i) => `image ${i + 1}: ${img.width}×${img.height} px`).join('; ');
}

export async function partialRecord(task: VisualTask, tools: string[], store: ImageStore): Promise<PartialRecorder> {
  return {
    taskId: task.id,
    env: 'visual',
    domain: task.family,
    instruction: task.instruction,
    initial: { text: describeImages(task), images: await taskImages(task, store) },
    meta: { family: task.family, tools, maxTurns: MAX_TURNS },
  };
}

export async function episodeRecord(
  partial: PartialRecorder,
  run: AgentRun,
  check: CheckResult,
  store: ImageStore,
): Promise<EpisodeRecorder> {
  const steps: Step[] = [];
  for (const [index, s] of run.steps.entries()) {
    const images = s.image ? [await store.put(s.image, { mime: 'image/png', caption: `result of ${s.action}` })] : undefined;
    steps.push({
      index,
      action: s.action,
      ...(s.thought ? { thought: s.thought } : {}),
      ...(s.result !== undefined ? { result: s.result } : {}),
      ...(s.error ? { error: s.error } : {}),
      ...(images ? { observation: { images } } : {}),
    });
  }
  return {
    ...partial,
    steps,
    ...(run.answer !== undefined ? { answer: run.answer } : {}),
    outcome: { reward: check.correct ? 1 : 0, success: check.correct, note: check.correct ? 'answer accepted' : 'answer rejected' },
  };
}
