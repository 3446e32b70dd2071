// One evaluation's per-task outcomes (evidence/<node>/<split>-<i>/tasks.jsonl) as plain data for the page: the
// reward, the payload the program returned, the agent's steps and answer, and the images each refers to (ids mapped
// to files under the evidence folder's images/). The report clips long texts; the viewer serves them whole.
// The folder may have been tampered with: lines are read within engine/evaluate/evidence.ts's limits, and what
// could not be read is counted with its reason, so an unreadable file never shows as an empty, healthy list.
import { type Dir, opendirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { clipQuestion, QUESTION_CHARS, readEvidenceLines } from '../engine/evaluate/evidence.ts';
import { insideRoot, isSafeName, PathOutsideError, resolveInside } from '../foundation/safe-path.ts';
import { keyedObject } from '../foundation/keyed-object.ts';
import { ExplanationSchema } from '../engine/environment/explanation.ts';
import { type ExplainedPayload, explainPayload, explanationOf } from './task-explanation.ts';

/** More image files than this in one evaluation's folder are left out (and said so). */
const MAX_IMAGES = 10_000;

const Step = z.object({
  action: z.string(),
  observation: z.string().optional(),
  thought: z.string().optional(),
  images: z.array(z.string()).optional(),
});

// Only what the page shows; other fields of a line are dropped.
const TaskLine = z.object({
  taskId: z.string(),
  /** What the task asked (its instruction); runs written before it was kept have none. */
  question: z.string().optional(),
  /** The environment's explanation (ground truth), as evidence keeps it; runs written before it was kept have none. */
  explain: ExplanationSchema.optional().catch(undefined),
  world: z.string().optional(),
  scenario: z.string().optional(),
  reward: z.number().nullable(),
  success: z.boolean().optional(),
  metrics: z.record(z.string(), z.number()).optional(),
  payloadChars: z.number().optional(),
  payloadImages: z.number().optional(),
  truncated: z.boolean().optional(),
  retrieveMs: z.number().optional(),
  agentMs: z.number().optional(),
  programError: z.string().optional(),
  infraError: z.string().optional(),
  note: z.string().optional(),
  answer: z.string().optional(),
  payload: z.object({ text: z.string(), images: z.array(z.string()), metadata: z.unknown().optional() }).optional(),
  trajectory: z
    .object({
      answer: z.string().optional(),
      steps: z.array(Step),
      images: z.array(z.string()).optional(),
      files: z.array(z.string()).optional(),
    })
    .optional(),
});
type TaskLine = z.infer<typeof TaskLine>;
/** A task as the page shows it: the line, with its explanation read and found in the payload. */
export type TaskView = Omit<TaskLine, 'explain'> & { explanation?: ExplainedPayload };

export interface EvidenceView {
  /** The evidence folder, relative to the run folder. */
  evidence: string;
  tasks: TaskView[];
  /** Image id → its file, relative to the run folder. */
  images: Record<string, string>;
  /** Lines that could not be read (a line being written, or damage). */
  unreadable: number;
  /** Why lines could not be read, and anything wrong with the folder or its files. */
  problems: string[];
}

export interface ClipLimits {
  payloadChars: number;
  stepChars: number;
}

const clip = (s: string, n: number) =>
  s.length > n ? `${s.slice(0, n)}\n… [${s.length - n} more characters left out of this report]` : s;

/**
 * Reads an evaluation's evidence folder (`evidence`, relative to `runDir`); null when it would be outside the run.
 * A folder that is gone gives no tasks and says so.
 */
export function readEvidence(runDir: string, evidence: string, limits?: ClipLimits): EvidenceView | null {
  let dir: string;
  try {
    dir = resolveInside(runDir, evidence);
  } catch (err) {
    if (err instanceof PathOutsideError) return null;
    throw err;
  }
  if (!insideRoot(runDir, evidence))
    return { evidence, tasks: [], images: {}, unreadable: 0, problems: [`the evidence folder ${evidence} is missing`] };
  const read = tasksFile(runDir, evidence)
    ? readEvidenceLines(join(dir, 'tasks.jsonl'), TaskLine)
    : { records: [], unreadable: 0, problems: ['tasks.jsonl is a link that leads outside the run folder; not read'] };
  // A question is cut as the writer cuts it, whatever the file holds (the writer's own cut, with its note, passes).
  const questions = read.records.map((t) =>
    t.question !== undefined && t.question.length > QUESTION_CHARS + 100
      ? { ...t, question: clipQuestion(t.question) }
      : t,
  );
  const tasks = questions.map((t) => explained(t, limits ? clipTask(t, limits) : t));
  const problems = [...read.problems];
  // Keyed by file names anyone can put in the folder: no name may stand for what objects inherit.
  const images = keyedObject<string>();
  let dirHandle: Dir | undefined;
  try {
    if (insideRoot(runDir, `${evidence}/images`)) dirHandle = opendirSync(join(dir, 'images'));
  } catch {
    // No images in this evaluation.
  }
  if (dirHandle) {
    let count = 0;
    try {
      for (let entry = dirHandle.readSync(); entry; entry = dirHandle.readSync()) {
        // Only names the writer gives (img_<hash>.<ext>): anything else was not written by automemo.
        if (!entry.isFile() || !isSafeName(entry.name)) continue;
        if (++count > MAX_IMAGES) {
          problems.push(`images/ holds more than ${MAX_IMAGES} files; the rest are left out`);
          break;
        }
        images[entry.name.replace(/\.[a-z]+$/i, '')] = `${evidence}/images/${entry.name}`;
      }
    } finally {
      dirHandle.closeSync();
    }
  }
  return { evidence, tasks, images, unreadable: read.unreadable, problems };
}

/** Whether tasks.jsonl may be read: not a link leading out of the run (a missing file may: it reads as empty). */
function tasksFile(runDir: string, evidence: string): boolean {
  try {
    resolveInside(runDir, `${evidence}/tasks.jsonl`);
    return true;
  } catch (err) {
    if (err instanceof PathOutsideError) return false;
    throw err;
  }
}

/** The task as shown (`shown`, maybe clipped), with its explanation found in the whole payload and marked in the shown one. */
function explained(whole: TaskLine, shown: TaskLine): TaskView {
  const { explain, ...rest } = shown;
  const ex = explanationOf(explain);
  return ex ? { ...rest, explanation: explainPayload(ex, whole.payload?.text ?? '', shown.payload?.text ?? '') } : rest;
}

function clipTask(t: TaskLine, limits: ClipLimits): TaskLine {
  return {
    ...t,
    ...(t.payload ? { payload: { ...t.payload, text: clip(t.payload.text, limits.payloadChars) } } : {}),
    ...(t.trajectory
      ? {
          trajectory: {
            ...t.trajectory,
            steps: t.trajectory.steps.map((s) => ({
              ...s,
              action: clip(s.action, limits.stepChars),
              ...(s.observation !== undefined ? { observation: clip(s.observation, limits.stepChars) } : {}),
              ...(s.thought !== undefined ? { thought: clip(s.thought, limits.stepChars) } : {}),
            })),
          },
        }
      : {}),
  };
}

/** Every image id a task refers to: payload images, the task's images, each step's. */
export function imageIds(t: Pick<TaskView, 'payload' | 'trajectory'>): string[] {
  return [
    ...(t.payload?.images ?? []),
    ...(t.trajectory?.images ?? []),
    ...(t.trajectory?.steps.flatMap((s) => s.images ?? []) ?? []),
  ];
}
