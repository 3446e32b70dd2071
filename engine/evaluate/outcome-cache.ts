// Outcomes of deterministic agents, keyed by (task, payload hash, agent configuration): the same payload for the
// same task gives the same outcome, so candidates that retrieve the same memory do not rerun the agent.
// Kept in memory and, when a file is given, appended to a JSONL file that later runs read back.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { MemoryPayload } from '../../memo-programs/contract.ts';
import type { TaskOutcome } from '../environment/contract.ts';

export function payloadHash(payload: MemoryPayload): string {
  return createHash('sha256').update(JSON.stringify([payload.text, payload.images.map((i) => i.id), payload.metadata ?? null])).digest('hex');
}

export function outcomeKey(taskId: string, payload: MemoryPayload, agentId: string): string {
  return createHash('sha256').update(`${taskId}\u0000${payloadHash(payload)}\u0000${agentId}`).digest('hex');
}

export class OutcomeCache {
  private readonly map = new Map<string, TaskOutcome>();
  hits = 0;
  misses = 0;

  constructor(private readonly file?: string) {
    if (file && existsSync(file)) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        try {
          const { key, outcome } = JSON.parse(line) as { key: string; outcome: TaskOutcome };
          this.map.set(key, outcome);
        } catch {
          // A torn last line from an interrupted run: everything before it is still good.
        }
      }
    }
  }

  get(key: string): TaskOutcome | undefined {
    const v = this.map.get(key);
    if (v) this.hits++;
    else this.misses++;
    return v;
  }

  set(key: string, outcome: TaskOutcome): void {
    this.map.set(key, outcome);
    if (this.file) {
      mkdirSync(dirname(this.file), { recursive: true });
      appendFileSync(this.file, `${JSON.stringify({ key, outcome })}\n`);
    }
  }

  get size(): number {
    return this.map.size;
  }
}
