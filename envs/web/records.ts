// Turning web episodes into the contract's records: a task before its run becomes a PartialRecorder (what
// `retrieve` sees), a finished run an EpisodeRecorder (what `update` learns from). Screenshots go into the host's
// image store; records carry references.
import type { EpisodeRecorder, PartialRecorder, Step } from '../../memo-programs/contract.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import type { Trajectory } from '../../engine/environment/contract.ts';
import type { WebTask } from './catalog.ts';
import type { EpisodeResult } from './episode.ts';
import { MAX_STEPS, type WebStep } from './session.ts';

export function partialRecord(t: WebTask): PartialRecorder {
  return {
    taskId: t.id,
    env: 'web',
    domain: t.site.name,
    instruction: t.spec.instruction,
    initial: { text: `Website: ${t.site.title} (start page ${t.spec.start})`, images: [] },
    meta: { site: t.site.name, siteTitle: t.site.title, start: t.spec.start, maxSteps: MAX_STEPS },
  };
}

async function screenshotRef(s: WebStep, store: ImageStore) {
  return s.screenshot ? store.put(s.screenshot, { mime: 'image/jpeg', caption: `page after: ${s.action}` }) : undefined;
}

export async function episodeRecord(partial: PartialRecorder, r: EpisodeResult, store: ImageStore): Promise<EpisodeRecorder> {
  const steps: Step[] = [];
  for (const [index, s] of r.steps.entries()) {
    const img = await screenshotRef(s, store);
    steps.push({
      index,
      action: s.action,
      ...(s.thought ? { thought: s.thought } : {}),
      ...(s.result !== undefined ? { result: s.result } : {}),
      ...(s.error ? { error: s.error } : {}),
      ...(s.snapshot || img ? { observation: { ...(s.snapshot ? { text: s.snapshot } : {}), ...(img ? { images: [img] } : {}) } } : {}),
    });
  }
  return {
    ...partial,
    steps,
    ...(r.answer !== undefined ? { answer: r.answer } : {}),
    outcome: { reward: r.check.correct ? 1 : 0, success: r.check.correct, note: r.check.correct ? 'task accepted' : 'task rejected' },
  };
}

export async function trajectoryOf(r: EpisodeResult, store: ImageStore): Promise<Trajectory> {
  const steps: Trajectory['steps'] = [];
  for (const s of r.steps) {
    const img = await screenshotRef(s, store);
    steps.push({
      action: s.action,
      ...(s.thought ? { thought: s.thought } : {}),
      ...(s.error || s.result ? { observation: s.error ? `error: ${s.error}` : s.result } : {}),
      ...(img ? { images: [img.id] } : {}),
    });
  }
  return { ...(r.answer !== undefined ? { answer: r.answer } : {}), steps, ...(r.tokens ? { tokens: r.tokens } : {}) };
}
