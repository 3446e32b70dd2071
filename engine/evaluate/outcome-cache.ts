// Outcomes of deterministic agents, keyed by (task, payload hash, agent configuration): the same payload for the
// same task gives the same outcome, so candidates that retrieve the same memory do not rerun the agent (a browser
// task is seconds of Chromium). Kept in memory, bounded: past `maxBytes` of outcomes (their JSON size), the oldest
// go first — a worker serving searches for days must not grow without end.
import { createHash } from 'node:crypto';
import type { MemoryPayload } from '../../memo-programs/contract.ts';
import { payloadDigest } from '../../sandbox/payload.ts';
import type { TaskOutcome } from '../environment/contract.ts';

/** Outcomes kept at most, by their JSON size. */
export const OUTCOME_CACHE_BYTES = 256 * 2 ** 20;

export function outcomeKey(taskId: string, payload: MemoryPayload, agentId: string): string {
  const digest = payloadDigest(payload.text, payload.images.map((i) => i.id), payload.metadata);
  return createHash('sha256').update(`${taskId}\u0000${digest}\u0000${agentId}`).digest('hex');
}

export class OutcomeCache {
  private readonly map = new Map<string, { outcome: TaskOutcome; bytes: number }>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes = OUTCOME_CACHE_BYTES) {}

  get(key: string): TaskOutcome | undefined {
    const v = this.map.get(key);
    if (v) this.hits++;
    else this.misses++;
    return v?.outcome;
  }

  set(key: string, outcome: TaskOutcome): void {
    let bytes: number;
    try {
      bytes = key.length + JSON.stringify(outcome).length;
    } catch {
      return; // Not plain data: not kept.
    }
    if (bytes > this.maxBytes) return;
    const old = this.map.get(key);
    if (old) {
      this.map.delete(key);
      this.bytes -= old.bytes;
    }
    this.map.set(key, { outcome, bytes });
    this.bytes += bytes;
    // A Map iterates in insertion order: the first keys are the oldest.
    for (const [k, v] of this.map) {
      if (this.bytes <= this.maxBytes) break;
      this.map.delete(k);
      this.bytes -= v.bytes;
    }
  }

  get size(): number {
    return this.map.size;
  }
}
