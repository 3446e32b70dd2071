// Evidence of one evaluation, written as it happens so an interrupted run keeps what it finished:
//   tasks.jsonl   one line per task: the record, the payload the agent got, the trajectory
//   worlds.jsonl  one line per world: update timings and errors, primitive usage
//   summary.json  the result without per-task lines, written at the end
// Images are referenced by id (and written as files by environments that have them), never inlined.
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemoryPayload } from '../../memo-programs/contract.ts';
import type { TaskOutcome } from '../../envs/types.ts';
import type { EvaluationResult, TaskRecord, WorldRecord } from './evaluate.ts';

export class EvidenceWriter {
  private ready: Promise<void>;

  constructor(readonly dir: string) {
    this.ready = mkdir(dir, { recursive: true }).then(() => undefined);
  }

  async task(record: TaskRecord, payload: MemoryPayload, outcome: TaskOutcome | undefined): Promise<void> {
    await this.ready;
    const line = {
      ...record,
      payload: { text: payload.text, images: payload.images.map((i) => i.id), ...(payload.metadata !== undefined ? { metadata: payload.metadata } : {}) },
      ...(outcome ? { trajectory: outcome.trajectory } : {}),
    };
    await appendFile(join(this.dir, 'tasks.jsonl'), `${JSON.stringify(line)}\n`);
  }

  async world(record: WorldRecord): Promise<void> {
    await this.ready;
    await appendFile(join(this.dir, 'worlds.jsonl'), `${JSON.stringify(record)}\n`);
  }

  async summary(result: EvaluationResult): Promise<string> {
    await this.ready;
    const { tasks: _tasks, ...rest } = result;
    const file = join(this.dir, 'summary.json');
    await writeFile(file, `${JSON.stringify(rest, null, 2)}\n`);
    return file;
  }
}
