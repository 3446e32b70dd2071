// The offline agent's next edit of a program: every candidate its modes propose, in tiers — first what the evidence
// points at and what helped elsewhere (extend), then a part of a better program (crossover), then the systematic
// sweep of the declared tunables beside the edits the evidence only hints at — each tier by weight (a seeded jitter
// breaks near ties). A candidate already tried from this parent, or one that lost here, on an ancestor or a sibling,
// is never taken (lessons.ts); the first that applies to the program and changes it is the child.
import type { Edit, OfflineParent, ProgramFiles } from '../types.ts';
import { type Applied, applyEdits } from './apply-edit.ts';
import { type Candidate, STRONG } from './candidate.ts';
import { crossoverCandidates } from './crossover.ts';
import { extendCandidates } from './extend.ts';
import { type Lessons, ruledOut } from './lessons.ts';
import type { Reading } from './reading.ts';
import { readPipeline } from './stage-edit.ts';
import { evidenceCandidates } from './structural.ts';
import { configSweep, pipelineSweep } from './sweep.ts';
import { vocabularyCandidates } from './vocabulary.ts';

export interface Chosen {
  candidate: Candidate;
  files: ProgramFiles;
  /** The edits as they landed on the program. */
  edits: Edit[];
}

/** 1: the evidence points at it, or it helped elsewhere; 2: a better program's part; 3: the sweep and weak hints. */
export function tierOf(c: Candidate, parentQ: number, donorQ: (c: Candidate) => number | undefined): number {
  if (c.mode === 'extend' || (c.mode === 'evidence' && c.weight >= STRONG)) return 1;
  if (c.mode === 'crossover' && (donorQ(c) ?? -Infinity) > parentQ) return 2;
  return 3;
}

/** Every candidate edit of a pipeline program. */
export function pipelineCandidates(ctx: OfflineParent, files: ProgramFiles, reading: Reading, lessons: Lessons): Candidate[] {
  const pipeline = readPipeline(files);
  if (!pipeline) return [];
  const at = { ...ctx, files };
  return [
    ...vocabularyCandidates(at, pipeline, reading),
    ...evidenceCandidates(at, pipeline, reading),
    ...extendCandidates(lessons, ctx.node),
    ...crossoverCandidates(at, pipeline, reading),
    ...pipelineSweep(pipeline, reading, lessons, ctx.history ?? []),
  ];
}

/** Every candidate edit of a program edited through its config: the evidence's (given), extensions, the sweep. */
export function configCandidates(ctx: OfflineParent, files: ProgramFiles, evidence: Candidate[], lessons: Lessons, usableLeaf: (path: string) => boolean): Candidate[] {
  return [...evidence, ...extendCandidates(lessons, ctx.node), ...configSweep(files, usableLeaf, lessons, ctx.history ?? [])];
}

/** The first candidate, in tier and weight order, that is not ruled out and applies to `files`. */
export function choose(ctx: OfflineParent, files: ProgramFiles, candidates: Candidate[], lessons: Lessons, random: () => number): Chosen | undefined {
  const donorQ = (c: Candidate) => {
    const donor = c.edits.find((e) => e.donor)?.donor;
    return ctx.donors?.find((d) => d.node === donor)?.q;
  };
  const ordered = candidates
    .filter((c) => !ruledOut(lessons, c.edits))
    .map((c) => ({ c, tier: tierOf(c, ctx.q, donorQ), w: c.weight * (0.9 + 0.2 * random()) }))
    .sort((a, b) => a.tier - b.tier || b.w - a.w);
  for (const { c } of ordered) {
    const applied: Applied | undefined = applyEdits(files, c.edits);
    if (!applied || ruledOut(lessons, applied.edits)) continue;
    return { candidate: c, files: applied.files, edits: applied.edits };
  }
  return undefined;
}
