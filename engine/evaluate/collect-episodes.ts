// Update episodes are an agent's own runs without memory, collected once and kept: every candidate program learns
// from the same recorded episodes, and running the agent for them is paid once. A collection is named by a content
// key (the environment, the agent, every task, the spec's data and a hash of its code); each finished episode is
// stored at once, so a collection that stops keeps what it finished and a later one collects only the rest.
// Infrastructure failures are retried; what is read back is checked, and an episode that does not check out is
// collected again.
import { createHash } from 'node:crypto';
import type { EpisodeRecorder, ImageRef, Json } from '../../memo-programs/contract.ts';
import type { ImageStore } from '../../sandbox/primitives/images.ts';
import { EnvironmentFailure, InfraError } from '../environment/contract.ts';
import { parseEpisode } from './episode-schema.ts';
import { EpisodeStore } from './episode-store.ts';

/** What a collection depends on; any change names another collection. */
export interface CollectionKey {
  env: string;
  agentId: string;
  /** A hash over every task of the environment (content, images, role). */
  catalog: string;
  data: Json;
  /** A hash of the environment's code, when the caller has one. */
  source?: string;
}

export interface CollectRequest {
  key: CollectionKey;
  /** The tasks to collect, in order: id and content hash. */
  tasks: readonly { id: string; hash: string }[];
  /** Runs one task without memory and records its episode. Throws InfraError when the machinery failed. */
  collectOne(taskId: string): Promise<EpisodeRecorder>;
  images: ImageStore;
  store?: EpisodeStore;
  /** Episodes collected at once (default 2). */
  concurrency?: number;
  /** Attempts per episode when the machinery fails (default 3). */
  attempts?: number;
  /** Names the agent in progress notes. */
  agentName?: string;
  onNote?: (message: string) => void;
}

/** Stored file: the task it belongs to and its episode. */
interface StoredEpisode {
  taskId: string;
  episode: EpisodeRecorder;
}

const imageId = (bytes: Uint8Array) => `img_${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`;

/** The collection's episodes by task id, in task order: read back where stored, collected where not. */
export async function collectEpisodes(request: CollectRequest): Promise<Map<string, EpisodeRecorder>> {
  const store = request.store ?? new EpisodeStore();
  const note = request.onNote ?? (() => {});
  const collection = EpisodeStore.key(request.key as unknown as Json);
  const itemOf = (t: { id: string; hash: string }) => EpisodeStore.key([t.id, t.hash]);
  const found = new Map<string, EpisodeRecorder>();
  const missing: { id: string; hash: string }[] = [];
  for (const t of request.tasks) {
    const episode = await readBack(store, collection, itemOf(t), t.id, request.images, note);
    if (episode) found.set(t.id, episode);
    else missing.push(t);
  }
  if (missing.length) {
    const concurrency = Math.max(1, Math.floor(request.concurrency ?? 2));
    note(
      `collecting ${missing.length} update episode${missing.length === 1 ? '' : 's'}${found.size ? ` (${found.size} stored already)` : ''} with ${request.agentName ?? request.key.agentId}, no memory, ${concurrency} at a time; they are stored for later runs`,
    );
    await eachLimited(missing, concurrency, async (t) => {
      const episode = await collectWithRetries(request, t.id, note);
      persist(store, collection, itemOf(t), t.id, episode, request.images, note);
      found.set(t.id, episode);
    });
  }
  return new Map(request.tasks.map((t) => [t.id, found.get(t.id) as EpisodeRecorder]));
}

/** One episode; machinery failures are retried, then the collection stops naming the task. */
async function collectWithRetries(
  request: CollectRequest,
  taskId: string,
  note: (m: string) => void,
): Promise<EpisodeRecorder> {
  const attempts = Math.max(1, Math.floor(request.attempts ?? 3));
  for (let attempt = 1; ; attempt++) {
    try {
      return await request.collectOne(taskId);
    } catch (err) {
      const message = (err as Error).message;
      if (!(err instanceof InfraError) || attempt >= attempts) {
        const what = `collecting the update episode of task ${JSON.stringify(taskId)} failed after ${attempt} attempt${attempt === 1 ? '' : 's'}: ${message}`;
        // No program takes part in collecting an update episode: whatever failed is the environment's.
        throw new EnvironmentFailure(what, { cause: err });
      }
      note(
        `update episode of task ${JSON.stringify(taskId)}: ${message}; retrying (attempt ${attempt + 1} of ${attempts})`,
      );
    }
  }
}

/**
 * Runs `fn` over items, `limit` at a time. After a failure no new item starts; the ones under way finish (their
 * episodes are stored), then the first failure is thrown.
 */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++] as T;
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}

function imageRefs(episode: EpisodeRecorder): ImageRef[] {
  return [...(episode.initial.images ?? []), ...episode.steps.flatMap((s) => s.observation?.images ?? [])];
}

/** Stores the episode and every image it shows. A store that cannot be written is noted; the episode is still used. */
function persist(
  store: EpisodeStore,
  collection: string,
  item: string,
  taskId: string,
  episode: EpisodeRecorder,
  images: ImageStore,
  note: (m: string) => void,
): void {
  try {
    for (const ref of imageRefs(episode)) if (images.has(ref.id)) store.writeImage(ref.id, images.get(ref.id).bytes);
    const stored: StoredEpisode = { taskId, episode };
    store.writeEpisode(collection, item, JSON.stringify(stored));
  } catch (err) {
    note(
      `the update episode of task ${JSON.stringify(taskId)} could not be stored (${(err as Error).message}); it will be collected again next time`,
    );
  }
}

/** A stored episode that checks out, its images back in the host's store; undefined (with a note when it was there but bad) otherwise. */
async function readBack(
  store: EpisodeStore,
  collection: string,
  item: string,
  taskId: string,
  images: ImageStore,
  note: (m: string) => void,
): Promise<EpisodeRecorder | undefined> {
  const bad = (why: string) => {
    note(`the stored update episode of task ${JSON.stringify(taskId)} ${why}; collecting it again`);
    return undefined;
  };
  let text: string | undefined;
  try {
    text = store.readEpisode(collection, item);
  } catch (err) {
    return bad(`is unreadable (${(err as Error).message})`);
  }
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return bad(`is not JSON (${(err as Error).message})`);
  }
  const stored = value as Partial<StoredEpisode> | null;
  if (typeof stored !== 'object' || stored === null || stored.taskId !== taskId) return bad('belongs to another task');
  const parsed = parseEpisode(stored.episode);
  if (!parsed.ok) return bad(`is not an episode (${parsed.problem})`);
  if (parsed.episode.taskId !== taskId) return bad('belongs to another task');
  await restoreImages(parsed.episode, store, images, (n) =>
    note(`the stored update episode of task ${JSON.stringify(taskId)}: ${n}`),
  );
  return parsed.episode;
}

/** Puts the images an episode shows back into the host's store; one that is missing or not what its id says is dropped from the episode. */
async function restoreImages(
  episode: EpisodeRecorder,
  store: EpisodeStore,
  images: ImageStore,
  note: (m: string) => void,
): Promise<void> {
  const dropped: string[] = [];
  const usable = async (ref: ImageRef): Promise<boolean> => {
    if (images.has(ref.id)) return true;
    try {
      const bytes = store.readImage(ref.id);
      if (!bytes) return (dropped.push(`${ref.id} is missing`), false);
      if (imageId(bytes) !== ref.id) return (dropped.push(`${ref.id} does not hold the image its name says`), false);
      await images.put(bytes, { mime: ref.mime, ...(ref.caption ? { caption: ref.caption } : {}) });
      return true;
    } catch (err) {
      dropped.push(`${ref.id} is unreadable (${(err as Error).message})`);
      return false;
    }
  };
  const keep = async (refs: ImageRef[]) => {
    const out: ImageRef[] = [];
    for (const ref of refs) if (await usable(ref)) out.push(ref);
    return out;
  };
  if (episode.initial.images) episode.initial.images = await keep(episode.initial.images);
  for (const step of episode.steps)
    if (step.observation?.images) step.observation.images = await keep(step.observation.images);
  if (dropped.length)
    note(
      `image ${dropped.slice(0, 3).join(', ')}${dropped.length > 3 ? ` and ${dropped.length - 3} more` : ''}; dropped from the episode`,
    );
}
