// What every visual execution agent is (the model agent and the offline reference agent): its input, the steps it
// records, its run, and the turn limit they share.
import type { MemoryPayload } from '../../../memo-programs/contract.ts';
import type { RenderedImage } from '../task.ts';
import type { runTool } from '../tools/index.ts';
import type { ToolWorld } from '../tools/types.ts';

/** Turns per task, the answer included (AgentVista's one tool per turn). */
export const MAX_TURNS = 8;
/** Characters of a tool result kept in a recorded step. */
const RESULT_CHARS = 2000;

export interface AgentInput {
  taskId: string;
  instruction: string;
  images: RenderedImage[];
}

export interface AgentStep {
  action: string;
  thought?: string;
  result?: string;
  error?: string;
  /** An image the step produced (zoom, crop). */
  image?: Buffer;
}

export interface AgentRun {
  answer?: string;
  steps: AgentStep[];
  tokens?: { prompt: number; completion: number };
  /** How memory was used: "none", "replayed <n> calls of a successful sibling", "avoided <n> failed siblings". */
  memoryUse: string;
}

export interface VisualAgent {
  readonly id: string;
  readonly deterministic: boolean;
  /** offline: the reference agent; model: an executor model answers. */
  readonly mode: 'offline' | 'model';
  run(input: AgentInput, payload: MemoryPayload, world: ToolWorld): Promise<AgentRun>;
}

/** The recorded step of one tool call. */
export function toolStep(action: string, r: Awaited<ReturnType<typeof runTool>>, thought?: string): AgentStep {
  return {
    action,
    ...(thought ? { thought } : {}),
    ...(r.result ? { result: r.result.text.slice(0, RESULT_CHARS) } : {}),
    ...(r.error ? { error: r.error } : {}),
    ...(r.result?.image ? { image: r.result.image } : {}),
  };
}
