// The images of one task's evidence, within the paper's limits, for a multimodal meta model: what the task showed
// and the agent's last screenshots (at most 4 per episode), and what the memory returned (at most 2). Files are
// found by id in the evidence folder's images/, proven inside it, never through a link.
import { basename } from 'node:path';
import { insideRoot } from '../../foundation/safe-path.ts';
import { LIMITS } from './evidence-limits.ts';

export interface TaskImages {
  /** Images the task showed and the agent's steps produced (latest steps kept), as files. */
  episode: string[];
  /** Images of the memory payload, as files. */
  payload: string[];
}

export interface EvidenceLine {
  payload?: { images?: string[] | undefined } | undefined;
  trajectory?: { images?: string[] | undefined; steps: { images?: string[] | undefined }[]; files?: string[] | undefined } | undefined;
}

const ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The evidence files of a task's images, chosen within LIMITS. */
export function evidenceImages(dir: string, line: EvidenceLine): TaskImages {
  const files = new Map<string, string>();
  for (const f of line.trajectory?.files ?? []) {
    const name = basename(f);
    const id = name.replace(/\.(png|jpe?g|webp|gif)$/i, '');
    if (id !== name && ID.test(id) && f === `images/${name}`) files.set(id, f);
  }
  const resolve = (ids: string[], max: number) =>
    [...new Set(ids)]
      .filter((id) => ID.test(id) && files.has(id))
      .map((id) => insideRoot(dir, files.get(id) as string))
      .filter((p): p is string => p !== null)
      .slice(0, max);
  const task = line.trajectory?.images ?? [];
  // The latest screenshots are the ones nearest the outcome.
  const steps = (line.trajectory?.steps ?? []).flatMap((s) => s.images ?? []).reverse();
  const episode = resolve([...task.slice(0, 2), ...steps, ...task.slice(2)], LIMITS.imagesPerEpisode);
  return { episode, payload: resolve(line.payload?.images ?? [], LIMITS.memoryImages) };
}
