// A saved memory on disk: what an exported package ships as memory/ and what save(dir) writes.
//   memory.json      the manifest (format, program, how to restore, embedder, clock, fingerprint)
//   episodes.jsonl   every episode the memory ingested, in order, with its virtual time
//   kv.json          the program's kv entries
//   vectors.json     the vector indices as plain data; vectors/<handle>.hnsw each index's graph (hnswlib)
//   snapshot.json    the program's snapshot(), when it has one
//   images.json      image references; images/<id> their bytes
//   embeddings.jsonl vectors of every text embedded so far (so a rebuild needs no model)
// Written into a fresh sibling folder, then swapped in, so a crash mid-save never leaves half a memory.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import type { EpisodeRecorder, ImageRef, Json } from '../../../memo-programs/contract.ts';
import type { SavedVectors } from '../../../sandbox/primitives/vectors.ts';

export const MEMORY_FORMAT = 'automemo-memory/1';

const FingerprintSchema = z.object({
  kvKeys: z.number().int(),
  kvBytes: z.number().int(),
  /** sha256 of the kv entries, sorted by key. */
  kvHash: z.string(),
  vectors: z.array(z.object({ handle: z.number().int(), size: z.number().int() })),
});
export type Fingerprint = z.infer<typeof FingerprintSchema>;

export const ManifestSchema = z.object({
  format: z.literal(MEMORY_FORMAT),
  savedAt: z.string(),
  program: z.object({ node: z.string(), hash: z.string() }),
  /** snapshot: kv, vectors and the program's snapshot are loaded; replay: update() runs again over the logged episodes. */
  restore: z.enum(['snapshot', 'replay']),
  embedder: z.string(),
  memo: z.string(),
  seed: z.number().int(),
  /** The virtual clock when saved. */
  clock: z.number(),
  episodes: z.number().int().min(0),
  images: z.number().int().min(0),
  fingerprint: FingerprintSchema,
});
export type Manifest = z.infer<typeof ManifestSchema>;

export interface LoggedEpisode {
  time: number;
  episode: EpisodeRecorder;
}

const VectorsSchema = z.object({
  nextHandle: z.number().int().min(1),
  indices: z.array(
    z.object({
      handle: z.number().int(),
      dim: z.number().int().positive(),
      space: z.enum(['cosine', 'ip', 'l2']),
      capacity: z.number().int().positive(),
      live: z.array(z.number().int()),
      deleted: z.array(z.number().int()),
      tags: z.array(z.tuple([z.number().int(), z.array(z.string())])),
    }),
  ),
});

export interface MemoryContents {
  manifest: Manifest;
  episodes: LoggedEpisode[];
  kv: [string, string][];
  snapshot?: Json;
  images: { ref: ImageRef; bytes: Buffer }[];
}

export interface SaveParts extends MemoryContents {
  /** Writes the vector indices into the folder given and returns their plain data. */
  vectors: (dir: string) => SavedVectors;
  /** Writes the embeddings file. */
  embeddings: (file: string) => void;
}

export function kvFingerprint(kv: [string, string][], vectors: { handle: number; size: number }[]): Fingerprint {
  const sorted = [...kv].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const hash = createHash('sha256');
  for (const [k, v] of sorted) hash.update(k).update('\u0000').update(v).update('\u0001');
  return {
    kvKeys: kv.length,
    kvBytes: kv.reduce((n, [k, v]) => n + 2 * (k.length + v.length), 0),
    kvHash: hash.digest('hex'),
    vectors,
  };
}

export function isMemoryDir(dir: string): boolean {
  return existsSync(join(dir, 'memory.json'));
}

export function writeMemoryDir(dir: string, parts: SaveParts): void {
  const tmp = join(dirname(dir), `.${basename(dir)}.saving-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(join(tmp, 'vectors'), { recursive: true });
  mkdirSync(join(tmp, 'images'), { recursive: true });
  const json = (name: string, value: unknown) => writeFileSync(join(tmp, name), `${JSON.stringify(value)}\n`);
  json('memory.json', parts.manifest);
  writeFileSync(join(tmp, 'episodes.jsonl'), parts.episodes.map((e) => `${JSON.stringify(e)}\n`).join(''));
  json('kv.json', parts.kv);
  json('vectors.json', parts.vectors(join(tmp, 'vectors')));
  if (parts.snapshot !== undefined) json('snapshot.json', parts.snapshot);
  json('images.json', parts.images.map((i) => i.ref));
  for (const img of parts.images) writeFileSync(join(tmp, 'images', img.ref.id), img.bytes);
  parts.embeddings(join(tmp, 'embeddings.jsonl'));
  // Swap: the old folder (if any) goes only once the new one is complete.
  const old = join(dirname(dir), `.${basename(dir)}.old-${process.pid}`);
  if (existsSync(dir)) renameSync(dir, old);
  renameSync(tmp, dir);
  rmSync(old, { recursive: true, force: true });
}

function readJson<T>(file: string, schema: z.ZodType<T>, what: string): T {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: ${what} is unreadable (${(err as Error).message})`, { cause: err });
  }
  const r = schema.safeParse(raw);
  if (!r.success) throw new Error(`${file}: not ${what}: ${z.prettifyError(r.error)}`);
  return r.data;
}

export interface ReadMemory extends MemoryContents {
  vectors: SavedVectors;
  vectorsDir: string;
  embeddingsFile: string;
}

export function readMemoryDir(dir: string): ReadMemory {
  if (!isMemoryDir(dir)) throw new Error(`${dir} holds no saved memory (no memory.json)`);
  const manifest = readJson(join(dir, 'memory.json'), ManifestSchema, `a memory manifest (${MEMORY_FORMAT})`);
  const episodes = readFileSync(join(dir, 'episodes.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l, i) => {
      try {
        return JSON.parse(l) as LoggedEpisode;
      } catch {
        throw new Error(`${join(dir, 'episodes.jsonl')}: line ${i + 1} is not JSON`);
      }
    });
  const kv = readJson(join(dir, 'kv.json'), z.array(z.tuple([z.string(), z.string()])), 'kv entries');
  const vectors = readJson(join(dir, 'vectors.json'), VectorsSchema, 'vector indices') as SavedVectors;
  const snapshotFile = join(dir, 'snapshot.json');
  const refs = readJson(join(dir, 'images.json'), z.array(z.object({ id: z.string(), mime: z.string() }).passthrough()), 'image references') as ImageRef[];
  // npm pack leaves empty folders out, so a memory without images may have no images/ at all.
  const present = new Set(existsSync(join(dir, 'images')) ? readdirSync(join(dir, 'images')) : []);
  const images = refs.map((ref) => {
    if (!present.has(ref.id)) throw new Error(`${dir}: image ${ref.id} is listed but its file is missing`);
    return { ref, bytes: readFileSync(join(dir, 'images', ref.id)) };
  });
  return {
    manifest,
    episodes,
    kv,
    vectors,
    vectorsDir: join(dir, 'vectors'),
    images,
    embeddingsFile: join(dir, 'embeddings.jsonl'),
    ...(existsSync(snapshotFile) ? { snapshot: JSON.parse(readFileSync(snapshotFile, 'utf8')) as Json } : {}),
  };
}
