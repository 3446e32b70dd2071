// Evidence of one evaluation, written as it happens so an interrupted run keeps what it finished:
//   tasks.jsonl   one line per task: the record, the payload the agent got, the trajectory
//   worlds.jsonl  one line per world: update timings and errors, primitive usage
//   summary.json  the result without per-task lines, written at the end
//   images/       the images a task showed or produced (task images, zoom crops, payload images), one file per
//                 id; lines refer to them by id and list their paths in `trajectory.files`, never inline them
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemoryPayload } from '../../memo-programs/contract.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import type { TaskOutcome } from '../../envs/types.ts';
import type { EvaluationResult, TaskRecord, WorldRecord } from './evaluate.ts';

export class EvidenceWriter {
  private ready: Promise<void>;

  private readonly written = new Set<string>();

  /** `images`: the host's store, to write referenced images as files (without it, lines keep the ids only). */
  constructor(
    readonly dir: string,
    private readonly images?: ImageStore,
  ) {
    this.ready = mkdir(dir, { recursive: true }).then(() => undefined);
  }

  /** Writes each image once; returns the relative paths of those the store knows. */
  private async imageFiles(ids: string[]): Promise<string[]> {
    const store = this.images;
    if (!store || ids.length === 0) return [];
    const files: string[] = [];
    for (const id of [...new Set(ids)]) {
      if (!store.has(id)) continue;
      const img = store.get(id);
      const ext = img.ref.mime === 'image/jpeg' ? 'jpg' : img.ref.mime === 'image/webp' ? 'webp' : 'png';
      const file = join('images', `${id}.${ext}`);
      if (!this.written.has(id)) {
        this.written.add(id);
        await mkdir(join(this.dir, 'images'), { recursive: true });
        await writeFile(join(this.dir, file), img.bytes);
      }
      files.push(file);
    }
    return files;
  }

  async task(record: TaskRecord, payload: MemoryPayload, outcome: TaskOutcome | undefined): Promise<void> {
    await this.ready;
    const t = outcome?.trajectory;
    const ids = [...payload.images.map((i) => i.id), ...(t?.images ?? []), ...(t?.steps.flatMap((s) => s.images ?? []) ?? [])];
    const files = await this.imageFiles(ids);
    const line = {
      ...record,
      payload: { text: payload.text, images: payload.images.map((i) => i.id), ...(payload.metadata !== undefined ? { metadata: payload.metadata } : {}) },
      ...(t ? { trajectory: { ...t, ...(files.length ? { files: [...new Set([...(t.files ?? []), ...files])] } : {}) } } : {}),
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
