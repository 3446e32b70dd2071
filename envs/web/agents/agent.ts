// What every web execution agent is (the model agent and the offline reference agent): it gets the task and the
// memory payload, drives the episode's session (one action per step, at most 15 with the answer) and ends it with
// an answer.
import type { MemoryPayload } from '../../../memo-programs/contract.ts';
import type { Session } from '../session.ts';

export interface WebTaskInput {
  taskId: string;
  /** The site's short name ("shop") and its title ("ShopLite"). */
  site: string;
  siteTitle: string;
  instruction: string;
}

export interface WebAgentRun {
  /** How memory was used: "none", "replayed 5 steps of a successful sibling", ... */
  memoryUse: string;
  tokens?: { prompt: number; completion: number };
}

export interface WebAgent {
  readonly id: string;
  readonly deterministic: boolean;
  readonly mode: 'offline' | 'model';
  /** Drives the session until it has an answer (the session records every step). */
  run(input: WebTaskInput, payload: MemoryPayload, session: Session): Promise<WebAgentRun>;
}
