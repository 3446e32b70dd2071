// One evaluation's per-task outcomes (evidence/<node>/<split>-<i>/tasks.jsonl) as plain data for the page: the
// reward, the payload the program returned, the agent's steps and answer, and the images each refers to (ids mapped
// to files under the evidence folder's images/). The report clips long texts; the viewer serves them whole.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { insideRoot } from './safe-path.ts';

const Step = z.object({ action: z.string(), observation: z.string().optional(), thought: z.string().optional(), images: z.array(z.string()).optional() });

// Only what the page shows; other fields of a line are dropped.
const TaskLine = z.object({
  taskId: z.string(),
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
  trajectory: z.object({ answer: z.string().optional(), steps: z.array(Step), images: z.array(z.string()).optional(), files: z.array(z.string()).optional() }).optional(),
});
export type TaskView = z.infer<typeof TaskLine>;

export interface EvidenceView {
  /** The evidence folder, relative to the run folder. */
  evidence: string;
  tasks: TaskView[];
  /** Image id → its file, relative to the run folder. */
  images: Record<string, string>;
  /** Lines that could not be read (a line being written, or damage). */
  unreadable: number;
}

export interface ClipLimits {
  payloadChars: number;
  stepChars: number;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}\n… [${s.length - n} more characters left out of this report]` : s);

/** Reads an evaluation's evidence folder (`evidence`, relative to `runDir`); null when it is not inside the run. */
export function readEvidence(runDir: string, evidence: string, limits?: ClipLimits): EvidenceView | null {
  const dir = insideRoot(runDir, evidence);
  if (!dir) return null;
  const tasks: TaskView[] = [];
  let unreadable = 0;
  let text = '';
  try {
    text = readFileSync(join(dir, 'tasks.jsonl'), 'utf8');
  } catch {
    // An evaluation that wrote no task (every world failed to load) has no tasks.jsonl.
  }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const parsed = TaskLine.safeParse(JSON.parse(line));
      if (parsed.success) tasks.push(limits ? clipTask(parsed.data, limits) : parsed.data);
      else unreadable++;
    } catch {
      unreadable++;
    }
  }
  const images: Record<string, string> = {};
  try {
    for (const f of readdirSync(join(dir, 'images'))) images[f.replace(/\.[a-z]+$/i, '')] = `${evidence}/images/${f}`;
  } catch {
    // No images in this evaluation.
  }
  return { evidence, tasks, images, unreadable };
}

function clipTask(t: TaskView, limits: ClipLimits): TaskView {
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
export function imageIds(t: TaskView): string[] {
  return [...(t.payload?.images ?? []), ...(t.trajectory?.images ?? []), ...(t.trajectory?.steps.flatMap((s) => s.images ?? []) ?? [])];
}
