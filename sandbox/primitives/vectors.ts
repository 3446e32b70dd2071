// HNSW indices (hnswlib-node) owned by the host on behalf of one program instance, reached by handle.
// Filters (label lists, tags) run inside the graph search so they never starve the result list.
import { join } from 'node:path';
import hnswlib from 'hnswlib-node';
import { z } from 'zod';
import { checkHnswFile } from './hnsw-file.ts';
import { QuotaError, type Quotas } from './quotas.ts';

export type Space = 'cosine' | 'ip' | 'l2';

export interface VectorHitOut {
  label: number;
  distance: number;
  score: number;
}

interface IndexState {
  index: hnswlib.HierarchicalNSW;
  dim: number;
  space: Space;
  capacity: number;
  live: Set<number>;
  deleted: Set<number>;
  tags: Map<number, string[]>;
}

/** The largest label a program may give a vector (the primitive's argument schema allows no more). */
export const MAX_LABEL = 2 ** 31 - 1;
const Label = z.number().int().min(0).max(MAX_LABEL);

/** An index as plain data beside its hnswlib file (`<handle>.hnsw`): what an exported memory keeps. */
export const SavedIndexSchema = z
  .object({
    handle: z.number().int().min(1).max(MAX_LABEL),
    dim: z.number().int().positive().max(65_536),
    space: z.enum(['cosine', 'ip', 'l2']),
    capacity: z.number().int().positive().max(2 ** 32 - 1),
    live: z.array(Label),
    deleted: z.array(Label),
    tags: z.array(z.tuple([Label, z.array(z.string().max(200)).min(1).max(64)])),
  })
  .strict();
export type SavedIndex = z.infer<typeof SavedIndexSchema>;

export const SavedVectorsSchema = z
  .object({ nextHandle: z.number().int().min(1).max(MAX_LABEL), indices: z.array(SavedIndexSchema) })
  .strict();
export type SavedVectors = z.infer<typeof SavedVectorsSchema>;

const M = 16;
const EF_CONSTRUCTION = 100;

export class VectorStore {
  private readonly indices = new Map<number, IndexState>();
  private nextHandle = 1;
  private reservedBytes = 0;

  constructor(private readonly quotas: Pick<Quotas, 'vectorHandles' | 'vectorBytes' | 'vectorDimMax'>) {}

  private static bytesPerElement(dim: number): number {
    return 4 * dim + 8 * M + 32;
  }

  private reserve(dim: number, elements: number): void {
    const bytes = VectorStore.bytesPerElement(dim) * elements;
    if (this.reservedBytes + bytes > this.quotas.vectorBytes) {
      throw new QuotaError(
        'vectorBytes',
        `${elements} more ${dim}-d vectors need ${bytes} bytes; ${this.reservedBytes} of ${this.quotas.vectorBytes} are in use`,
      );
    }
    this.reservedBytes += bytes;
  }

  create(dim: number, space: Space, maxElements: number): { handle: number; dim: number; space: Space } {
    if (!Number.isInteger(dim) || dim < 1 || dim > this.quotas.vectorDimMax) {
      throw new QuotaError('vectorDimMax', `dimension ${dim} (allowed 1–${this.quotas.vectorDimMax})`);
    }
    if (this.indices.size >= this.quotas.vectorHandles) {
      throw new QuotaError('vectorHandles', `already ${this.indices.size} indices open`);
    }
    const capacity = Math.max(16, Math.floor(maxElements));
    this.reserve(dim, capacity);
    const index = new hnswlib.HierarchicalNSW(space, dim);
    index.initIndex({ maxElements: capacity, m: M, efConstruction: EF_CONSTRUCTION, randomSeed: 100 });
    const handle = this.nextHandle++;
    this.indices.set(handle, { index, dim, space, capacity, live: new Set(), deleted: new Set(), tags: new Map() });
    return { handle, dim, space };
  }

  private get(handle: number): IndexState {
    const s = this.indices.get(handle);
    if (!s) throw new Error(`no vector index with handle ${handle}`);
    return s;
  }

  add(handle: number, items: { label: number; vector: number[]; tags?: string[] }[]): void {
    const s = this.get(handle);
    for (const [i, item] of items.entries()) checkVector(item.vector, s.dim, `item ${i}`);
    const fresh = items.filter((it) => !s.live.has(it.label) && !s.deleted.has(it.label)).length;
    const need = s.live.size + s.deleted.size + fresh;
    if (need > s.capacity) {
      const next = Math.max(need, s.capacity * 2);
      this.reserve(s.dim, next - s.capacity);
      s.index.resizeIndex(next);
      s.capacity = next;
    }
    for (const { label, vector, tags } of items) {
      if (s.deleted.has(label)) {
        s.index.unmarkDelete(label);
        s.deleted.delete(label);
      }
      s.index.addPoint(vector, label);
      s.live.add(label);
      if (tags && tags.length) s.tags.set(label, tags);
      else s.tags.delete(label);
    }
  }

  search(
    handle: number,
    vector: number[],
    k: number,
    options: { labels?: number[]; anyTags?: string[]; ef?: number } = {},
  ): VectorHitOut[] {
    const s = this.get(handle);
    checkVector(vector, s.dim, 'query');
    const n = Math.min(Math.floor(k), s.live.size);
    if (n <= 0) return [];
    s.index.setEf(Math.max(n, Math.floor(options.ef ?? 64)));
    const allowed = options.labels ? new Set(options.labels) : undefined;
    const tagSet = options.anyTags ? new Set(options.anyTags) : undefined;
    const filter =
      allowed || tagSet
        ? (label: number) =>
            (!allowed || allowed.has(label)) && (!tagSet || (s.tags.get(label) ?? []).some((t) => tagSet.has(t)))
        : undefined;
    const res = s.index.searchKnn(vector, n, filter);
    return res.neighbors.map((label, i) => {
      const distance = res.distances[i] as number;
      return { label, distance, score: s.space === 'l2' ? -distance : 1 - distance };
    });
  }

  remove(handle: number, label: number): void {
    const s = this.get(handle);
    if (!s.live.has(label)) return;
    s.index.markDelete(label);
    s.live.delete(label);
    s.deleted.add(label);
    s.tags.delete(label);
  }

  /** An existing index's shape, for a program reopening it by handle (after restore). */
  open(handle: number): { handle: number; dim: number; space: Space } {
    const s = this.get(handle);
    return { handle, dim: s.dim, space: s.space };
  }

  size(handle: number): number {
    return this.get(handle).live.size;
  }

  get usedBytes(): number {
    return this.reservedBytes;
  }

  /** Every index with its number of live vectors. */
  list(): { handle: number; size: number }[] {
    return [...this.indices].map(([handle, s]) => ({ handle, size: s.live.size }));
  }

  get handles(): number {
    return this.indices.size;
  }

  /** Writes each index to `<dir>/<handle>.hnsw` and returns the rest as plain data (handles are kept). */
  save(dir: string): SavedVectors {
    const indices: SavedIndex[] = [];
    for (const [handle, s] of this.indices) {
      s.index.writeIndexSync(join(dir, `${handle}.hnsw`));
      indices.push({ handle, dim: s.dim, space: s.space, capacity: s.capacity, live: [...s.live], deleted: [...s.deleted], tags: [...s.tags] });
    }
    return { nextHandle: this.nextHandle, indices };
  }

  /**
   * Throws, naming the file and the field, unless `saved` (described as `what`) and its files in `dir` are what
   * `save` could have written under these quotas: the check every saved index passes before hnswlib reads it.
   */
  static check(dir: string, saved: SavedVectors, quotas: Pick<Quotas, 'vectorHandles' | 'vectorBytes' | 'vectorDimMax'>, what = 'the saved vectors'): void {
    if (saved.indices.length > quotas.vectorHandles) {
      throw new QuotaError('vectorHandles', `${what} hold ${saved.indices.length} indices (allowed ${quotas.vectorHandles})`);
    }
    const handles = new Set<number>();
    let bytes = 0;
    for (const x of saved.indices) {
      const fail = (problem: string): never => {
        throw new Error(`${what}: index ${x.handle}: ${problem}`);
      };
      if (handles.has(x.handle)) fail('listed twice');
      handles.add(x.handle);
      if (x.handle >= saved.nextHandle) fail(`its handle is not below nextHandle ${saved.nextHandle}`);
      if (x.dim > quotas.vectorDimMax) throw new QuotaError('vectorDimMax', `${what}: index ${x.handle} has dimension ${x.dim} (allowed 1–${quotas.vectorDimMax})`);
      bytes += VectorStore.bytesPerElement(x.dim) * x.capacity;
      if (bytes > quotas.vectorBytes) {
        throw new QuotaError('vectorBytes', `${what}: the indices up to ${x.handle} need ${bytes} bytes (allowed ${quotas.vectorBytes})`);
      }
      const live = new Set(x.live);
      const deleted = new Set(x.deleted);
      if (live.size !== x.live.length) fail('a live label is listed twice');
      if (deleted.size !== x.deleted.length) fail('a deleted label is listed twice');
      for (const label of deleted) if (live.has(label)) fail(`label ${label} is both live and deleted`);
      if (live.size + deleted.size > x.capacity) fail(`${live.size + deleted.size} labels exceed its capacity ${x.capacity}`);
      const tagged = new Set<number>();
      for (const [label] of x.tags) {
        if (!live.has(label)) fail(`tags name label ${label}, which is not live`);
        if (tagged.has(label)) fail(`tags of label ${label} are listed twice`);
        tagged.add(label);
      }
      checkHnswFile(join(dir, `${x.handle}.hnsw`), { dim: x.dim, capacity: x.capacity, live, deleted, m: M, maxLabel: MAX_LABEL });
    }
  }

  /** Replaces this store's indices with what `save` wrote, checked first (see `check`) so hnswlib reads only sound files. */
  load(dir: string, saved: SavedVectors, what?: string): void {
    VectorStore.check(dir, saved, this.quotas, what);
    this.dispose();
    try {
      for (const x of saved.indices) {
        this.reserve(x.dim, x.capacity);
        const index = new hnswlib.HierarchicalNSW(x.space, x.dim);
        const file = join(dir, `${x.handle}.hnsw`);
        try {
          index.readIndexSync(file);
          // hnswlib reads an empty index back with room for nothing: give it its capacity again.
          if (index.getMaxElements() < x.capacity) index.resizeIndex(x.capacity);
        } catch (err) {
          throw new Error(`${file}: hnswlib could not read it: ${(err as Error).message}`, { cause: err });
        }
        this.indices.set(x.handle, { index, dim: x.dim, space: x.space, capacity: x.capacity, live: new Set(x.live), deleted: new Set(x.deleted), tags: new Map(x.tags) });
      }
    } catch (err) {
      this.dispose();
      throw err;
    }
    this.nextHandle = saved.nextHandle;
  }

  dispose(): void {
    this.indices.clear();
    this.reservedBytes = 0;
  }
}

function checkVector(v: unknown[], dim: number, what: string): asserts v is number[] {
  if (v.length !== dim) throw new Error(`${what}: vector has ${v.length} dimensions, the index has ${dim}`);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      throw new Error(`${what}: vector[${i}] is ${typeof x === 'number' ? x : typeof x}; vectors must be finite numbers`);
    }
  }
}
