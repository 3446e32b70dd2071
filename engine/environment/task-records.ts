// Tasks and runs as the contract's records: a task before its run becomes a PartialRecorder (what `retrieve` sees),
// a finished run without memory an EpisodeRecorder (what `update` learns from), a run with memory a Trajectory (the
// evidence). Images go into the host's image store; records carry references. Ground truth and the checker's
// note never enter a record a program sees.
import type { EpisodeRecorder, ImageRef, PartialRecorder, Step } from '../../memo-programs/contract.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import type { Trajectory } from './contract.ts';
import type { ScoredRun } from './task-run.ts';
import type { AgentStep, EnvTask, TaskImage } from './task-spec.ts';
import { asBuffer } from '../../foundation/bytes.ts';

/** Puts images into the host's store; one it cannot read is an error naming where it came from. */
export async function storeImages(images: readonly TaskImage[], store: ImageStore, where: string): Promise<ImageRef[]> {
  const refs: ImageRef[] = [];
  for (const [i, img] of images.entries()) {
    try {
      refs.push(await store.put(asBuffer(img.bytes), { mime: img.mime, ...(img.caption ? { caption: img.caption } : {}) }));
    } catch (err) {
      throw new Error(`${where}: image ${i + 1} is not an image that can be read (${(err as Error).message})`, { cause: err });
    }
  }
  return refs;
}

export async function partialRecord(envName: string, task: EnvTask<unknown>, store: ImageStore): Promise<PartialRecorder> {
  const images = await storeImages(task.images ?? [], store, `task ${JSON.stringify(task.id)}`);
  return {
    taskId: task.id,
    env: envName,
    domain: task.domain ?? task.scenario,
    instruction: task.instruction,
    initial: { ...(task.context !== undefined ? { text: task.context } : {}), images },
    // A task's world is shown as meta.world (each world's memory is built apart all the same).
    meta: task.world !== undefined ? { ...(task.meta ?? {}), world: task.world } : (task.meta ?? {}),
  };
}

async function stepImages(step: AgentStep, store: ImageStore, taskId: string, index: number): Promise<ImageRef[]> {
  return storeImages(step.observation?.images ?? [], store, `task ${JSON.stringify(taskId)}, step ${index + 1}`);
}

export async function episodeRecord(partial: PartialRecorder, scored: ScoredRun, store: ImageStore): Promise<EpisodeRecorder> {
  const steps: Step[] = [];
  for (const [index, s] of scored.run.steps.entries()) {
    const images = await stepImages(s, store, partial.taskId, index);
    const text = s.observation?.text;
    steps.push({
      index,
      action: s.action,
      ...(s.thought ? { thought: s.thought } : {}),
      ...(s.result !== undefined ? { result: s.result } : {}),
      ...(s.error ? { error: s.error } : {}),
      ...(text !== undefined || images.length ? { observation: { ...(text !== undefined ? { text } : {}), ...(images.length ? { images } : {}) } } : {}),
    });
  }
  return {
    ...partial,
    steps,
    ...(scored.run.answer !== undefined ? { answer: scored.run.answer } : {}),
    outcome: { reward: scored.reward, success: scored.success, note: scored.feedback },
  };
}

export async function trajectoryOf(partial: PartialRecorder, scored: ScoredRun, store: ImageStore): Promise<Trajectory> {
  const steps: Trajectory['steps'] = [];
  for (const [index, s] of scored.run.steps.entries()) {
    const images = await stepImages(s, store, partial.taskId, index);
    steps.push({
      action: s.action,
      ...(s.thought ? { thought: s.thought } : {}),
      ...(s.result !== undefined || s.error ? { observation: s.error ? `error: ${s.error}` : s.result } : {}),
      ...(images.length ? { images: images.map((i) => i.id) } : {}),
    });
  }
  const taskImages = (partial.initial.images ?? []).map((i) => i.id);
  const { answer, tokens } = scored.run;
  return { ...(answer !== undefined ? { answer } : {}), steps, ...(taskImages.length ? { images: taskImages } : {}), ...(tokens ? { tokens } : {}) };
}
