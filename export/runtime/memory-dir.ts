// A saved memory on disk: what an exported package ships as memory/ and what save(dir) writes.
//   memory.json      the manifest (format, program, how to restore, embedder, clock, fingerprint)
//   episodes.jsonl   every episode the memory ingested, in order, with its virtual time
//   kv.json          the program's kv entries
//   vectors.json     the vector indices as plain data; vectors/<handle>.hnsw each index's graph (hnswlib)
//   snapshot.json    the program's snapshot(), when it has one
//   images.json      image references; images/<id> their bytes
//   embeddings.jsonl vectors of every text embedded so far (so a rebuild needs no model)
// Written into a fresh sibling folder, then swapped in, so a crash mid-save never leaves half a memory; replaced
// only when it is a memory automemo wrote (memory-target.ts). Read back with every file bounded and every field
// checked, so a tampered memory is refused when it is opened, with the file and the field named.
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import type { EpisodeRecorder, ImageRef, Json } from '../../memo-programs/contract.ts';
import { type SavedVectors, SavedVectorsSchema } from '../../sandbox/primitives/vectors.ts';
import { ImageRefSchema, JsonSchema } from '../../sandbox/schemas.ts';
import {
  inspectMemoryDir,
  MEMORY_FORMAT,
  MEMORY_SUBDIRS,
  MemoryDirError,
  removeMemoryFiles,
  siblingPrefix,
} from './memory-target.ts';
import { MiB, parseJson, readFileBounded, readJsonBounded } from './read-bounded.ts';

export { MEMORY_FORMAT };

/** The most each file of a memory may take when read back (below V8's longest string, ~512 MiB). */
export const MEMORY_CAPS = {
  manifest: MiB,
  episodes: 400 * MiB,
  kv: 400 * MiB,
  vectors: 256 * MiB,
  snapshot: 400 * MiB,
  imageList: 64 * MiB,
  image: 64 * MiB,
  images: 1024 * MiB,
  embeddings: 400 * MiB,
};
/** How deep JSON may nest: an episode's own fields are a few levels, its meta a few more; a snapshot is the program's. */
const EPISODE_DEPTH = 100;
const SNAPSHOT_DEPTH = 1000;

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

// What Memory.update logs: the contract's EpisodeRecorder with images as references. Objects keep fields this
// schema does not name (an environment's episodes may carry more), since replay must hand over what was logged.
const ObservationSchema = z.looseObject({
  text: z.string().optional(),
  url: z.string().optional(),
  images: z.array(ImageRefSchema).optional(),
});
const LoggedEpisodeSchema = z
  .object({
    time: z.number().min(0),
    episode: z.looseObject({
      taskId: z.string().min(1),
      env: z.string(),
      domain: z.string().optional(),
      instruction: z.string(),
      initial: ObservationSchema,
      steps: z.array(
        z.looseObject({
          index: z.number().int().min(0),
          observation: ObservationSchema.optional(),
          thought: z.string().optional(),
          action: z.string(),
          result: z.string().optional(),
          error: z.string().optional(),
        }),
      ),
      answer: z.string().optional(),
      outcome: z.looseObject({ reward: z.number().min(0).max(1), success: z.boolean(), note: z.string().optional() }),
      meta: z.record(z.string(), JsonSchema),
    }),
  })
  .strict();

/** Whatever JSON.parse returns is JSON; only its depth needs checking (parseJson does), not each value again. */
const AnyJson = z.custom<Json>(() => true);
const KvSchema = z.array(z.tuple([z.string().min(1), z.string()]));
const ImageListSchema = z.array(
  ImageRefSchema.extend({
    id: z.string().regex(MEMORY_SUBDIRS.images, 'not an image id automemo gives (img_ and 16 hex digits)'),
  }),
);

export interface MemoryContents {
  manifest: Manifest;
  episodes: LoggedEpisode[];
  kv: [string, string][];
  snapshot?: Json;
  images: { ref: ImageRef; bytes: Uint8Array }[];
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

/** Whether `dir` has a memory.json (the package's own memory folder; a user's folder goes through inspectMemoryDir). */
export function isMemoryDir(dir: string): boolean {
  return existsSync(join(dir, 'memory.json'));
}

/** Creates `file` (never over an existing file or link), writes `chunks` and flushes it to disk. */
function writeNew(file: string, chunks: Iterable<string | Uint8Array>): void {
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  try {
    for (const chunk of chunks) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Flushes a file or folder someone else wrote (hnswlib, the embedding cache) or a rename in a folder. */
function flush(path: string): void {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Every file of the memory into the fresh folder `tmp`; memory.json last, so a folder that has one is complete. */
function writeContents(tmp: string, parts: SaveParts): void {
  const json = (name: string, value: unknown) => writeNew(join(tmp, name), [`${JSON.stringify(value)}\n`]);
  mkdirSync(join(tmp, 'vectors'));
  mkdirSync(join(tmp, 'images'));
  writeNew(
    join(tmp, 'episodes.jsonl'),
    parts.episodes.map((e) => `${JSON.stringify(e)}\n`),
  );
  json('kv.json', parts.kv);
  const vectors = parts.vectors(join(tmp, 'vectors'));
  for (const x of vectors.indices) flush(join(tmp, 'vectors', `${x.handle}.hnsw`));
  json('vectors.json', vectors);
  if (parts.snapshot !== undefined) json('snapshot.json', parts.snapshot);
  json(
    'images.json',
    parts.images.map((i) => i.ref),
  );
  for (const img of parts.images) {
    // Ids come from the image store (img_ + hash); anything else would be a path we did not mean to write.
    if (!MEMORY_SUBDIRS.images.test(img.ref.id))
      throw new Error(`image id ${JSON.stringify(img.ref.id.slice(0, 80))} is not one the image store gives`);
    writeNew(join(tmp, 'images', img.ref.id), [img.bytes]);
  }
  const embeddings = join(tmp, 'embeddings.jsonl');
  parts.embeddings(embeddings);
  if (existsSync(embeddings)) flush(embeddings);
  flush(join(tmp, 'vectors'));
  flush(join(tmp, 'images'));
  json('memory.json', parts.manifest);
  flush(tmp);
}

/**
 * Writes a memory to `dir`: into a fresh sibling folder, then swapped in. `dir` may be missing, an empty folder or a
 * memory of the same program automemo wrote; anything else is refused (MemoryDirError) before anything is written,
 * and checked again just before the swap. The old memory is removed only after the new one is in place, file by
 * file. A failure at any point leaves `dir` as it was.
 */
export function writeMemoryDir(dir: string, parts: SaveParts): void {
  const sameProgram = (state: ReturnType<typeof inspectMemoryDir>) => {
    if (state.kind === 'memory' && state.program !== parts.manifest.program.hash) {
      throw new MemoryDirError(
        `${dir} holds the memory of another program (${state.program.slice(0, 12)}); this one is ${parts.manifest.program.node} (${parts.manifest.program.hash.slice(0, 12)}): save it to another folder`,
      );
    }
    return state;
  };
  sameProgram(inspectMemoryDir(dir));
  const full = resolve(dir);
  const parent = dirname(full);
  mkdirSync(parent, { recursive: true });
  const unique = () => `${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmp = join(parent, `${siblingPrefix(full, 'saving')}${unique()}`);
  mkdirSync(tmp);
  let state;
  try {
    writeContents(tmp, parts);
    state = sameProgram(inspectMemoryDir(dir));
  } catch (err) {
    removeMemoryFiles(tmp);
    throw err;
  }
  if (state.kind !== 'memory') {
    // Missing or empty: rename replaces an empty folder and fails on anything else, so nothing can be lost.
    try {
      renameSync(tmp, full);
    } catch (err) {
      removeMemoryFiles(tmp);
      throw new MemoryDirError(
        `${dir} changed while the memory was being saved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); nothing in it was replaced`,
      );
    }
  } else {
    const old = join(parent, `${siblingPrefix(full, 'old')}${unique()}`);
    try {
      renameSync(full, old);
    } catch (err) {
      removeMemoryFiles(tmp);
      throw err;
    }
    try {
      renameSync(tmp, full);
    } catch (err) {
      renameSync(old, full);
      removeMemoryFiles(tmp);
      throw err;
    }
    try {
      removeMemoryFiles(old);
    } catch {
      // The new memory is in place; an old one that cannot be cleared away stays beside it, hidden.
    }
  }
  flush(parent);
}

export interface ReadMemory extends MemoryContents {
  vectors: SavedVectors;
  vectorsDir: string;
  /** vectors.json, for messages about the indices. */
  vectorsFile: string;
  embeddingsFile: string;
}

/** Image references inside a logged episode. */
function* episodeImages(e: EpisodeRecorder): Generator<ImageRef> {
  yield* e.initial.images ?? [];
  for (const s of e.steps) yield* s.observation?.images ?? [];
}

/** How the kv and vectors held differ from those the manifest recorded; undefined when they are the same. */
function fingerprintDifference(recorded: Fingerprint, held: Fingerprint): string | undefined {
  if (recorded.kvKeys !== held.kvKeys)
    return `kv.json holds ${held.kvKeys} entries, memory.json records ${recorded.kvKeys}`;
  if (recorded.kvBytes !== held.kvBytes || recorded.kvHash !== held.kvHash)
    return 'the entries of kv.json are not those memory.json records (their sha256 differs)';
  const a = JSON.stringify(recorded.vectors);
  const b = JSON.stringify(held.vectors);
  if (a !== b) return `vectors.json holds indices of sizes ${b.slice(0, 300)}, memory.json records ${a.slice(0, 300)}`;
  return undefined;
}

/**
 * Reads and checks a saved memory: every file bounded (MEMORY_CAPS), never through a link, every record validated,
 * and the files checked against each other and the manifest (counts, fingerprint, image bytes against their ids).
 * The vector index files are checked by VectorStore when they are loaded or checked (openMemory does one or the other).
 */
export function readMemoryDir(dir: string): ReadMemory {
  const at = (name: string) => join(dir, name);
  let stat;
  try {
    stat = lstatSync(dir);
  } catch {
    throw new Error(`${dir} holds no saved memory (it does not exist)`);
  }
  if (!stat.isDirectory())
    throw new Error(`${dir} holds no saved memory (${stat.isSymbolicLink() ? 'a symbolic link' : 'not a folder'})`);
  if (!existsSync(at('memory.json'))) throw new Error(`${dir} holds no saved memory (no memory.json)`);
  const manifest = readJsonBounded(
    at('memory.json'),
    MEMORY_CAPS.manifest,
    ManifestSchema,
    `a memory manifest (${MEMORY_FORMAT})`,
  );

  const refs = readJsonBounded(at('images.json'), MEMORY_CAPS.imageList, ImageListSchema, 'image references');
  if (refs.length !== manifest.images)
    throw new Error(`${at('images.json')}: lists ${refs.length} images, memory.json says ${manifest.images}`);
  const ids = new Set<string>();
  let imageBytes = 0;
  // npm pack leaves empty folders out, so a memory without images may have no images/ at all.
  const images = refs.map((ref) => {
    if (ids.has(ref.id)) throw new Error(`${at('images.json')}: image ${ref.id} is listed twice`);
    ids.add(ref.id);
    const file = join(dir, 'images', ref.id);
    const bytes = readFileBounded(file, MEMORY_CAPS.image);
    imageBytes += bytes.length;
    if (imageBytes > MEMORY_CAPS.images)
      throw new Error(`${join(dir, 'images')}: more than ${MEMORY_CAPS.images / MiB} MiB of images`);
    if (`img_${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}` !== ref.id)
      throw new Error(`${file}: its bytes are not the image its name says (tampered)`);
    return { ref: ref as ImageRef, bytes };
  });

  const episodesFile = at('episodes.jsonl');
  const lines = readFileBounded(episodesFile, MEMORY_CAPS.episodes).toString('utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length !== manifest.episodes)
    throw new Error(`${episodesFile}: holds ${lines.length} lines, memory.json says ${manifest.episodes} episodes`);
  const episodes = lines.map((line, i) => {
    const logged = parseJson(
      line,
      LoggedEpisodeSchema,
      `${episodesFile}: line ${i + 1}`,
      'a logged episode',
      EPISODE_DEPTH,
    ) as LoggedEpisode;
    for (const img of episodeImages(logged.episode)) {
      if (!ids.has(img.id)) throw new Error(`${episodesFile}: line ${i + 1}: image ${img.id} is not in images.json`);
    }
    return logged;
  });

  const kvFile = at('kv.json');
  const kv = readJsonBounded(kvFile, MEMORY_CAPS.kv, KvSchema, 'kv entries') as [string, string][];
  const keys = new Set<string>();
  for (const [k, v] of kv) {
    if (keys.has(k)) throw new Error(`${kvFile}: key ${JSON.stringify(k.slice(0, 80))} appears twice`);
    keys.add(k);
    try {
      JSON.parse(v);
    } catch {
      throw new Error(`${kvFile}: the value of ${JSON.stringify(k.slice(0, 80))} is not JSON`);
    }
  }

  const vectorsFile = at('vectors.json');
  const vectors = readJsonBounded(vectorsFile, MEMORY_CAPS.vectors, SavedVectorsSchema, 'vector indices');
  const held = kvFingerprint(
    kv,
    vectors.indices.map((x) => ({ handle: x.handle, size: x.live.length })),
  );
  const differs = fingerprintDifference(manifest.fingerprint, held);
  if (differs) throw new Error(`${dir}: not the files saved together: ${differs}`);

  const snapshotFile = at('snapshot.json');
  const snapshot = existsSync(snapshotFile)
    ? readJsonBounded(snapshotFile, MEMORY_CAPS.snapshot, AnyJson, "the program's snapshot", SNAPSHOT_DEPTH)
    : undefined;
  return {
    manifest,
    episodes,
    kv,
    vectors,
    vectorsDir: at('vectors'),
    vectorsFile,
    images,
    embeddingsFile: at('embeddings.jsonl'),
    ...(snapshot !== undefined ? { snapshot } : {}),
  };
}
