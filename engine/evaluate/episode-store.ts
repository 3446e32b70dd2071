// Where collected update episodes live between runs: one folder per collection (named by its content key), one JSON
// file per episode in it, and the images episodes show in one content-addressed folder beside them. Names are
// hex keys and image ids we made, never text from a task; every read is bounded and never follows a link out, every
// write is proven inside the store and lands by rename, so an interrupted write never leaves a half file.
import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Json } from '../../memo-programs/contract.ts';
import { defaultCacheDir } from '../../foundation/cache-dir.ts';
import { resolveInside, writeInside } from '../../foundation/safe-path.ts';
import { readSmallBytes } from '../../foundation/small-file.ts';

/** An episode file is text we wrote: far more than this is not ours. */
export const MAX_EPISODE_BYTES = 32 * 2 ** 20;
/** The largest image an episode may show (a full-page screenshot is well under). */
export const MAX_IMAGE_BYTES = 32 * 2 ** 20;

const KEY = /^[0-9a-f]{16,64}$/;
const IMAGE_ID = /^img_[0-9a-f]{16}$/;

function checkKey(kind: string, key: string): void {
  if (!KEY.test(key)) throw new Error(`episode store: ${kind} ${JSON.stringify(String(key).slice(0, 80))} is not a hex key`);
}

function sizeOf(path: string): number | undefined {
  try {
    const st = lstatSync(path);
    return st.isFile() ? st.size : undefined;
  } catch {
    return undefined;
  }
}

export class EpisodeStore {
  constructor(readonly dir = join(defaultCacheDir(), 'episodes')) {}

  /** A key (24 hex digits) for any JSON value: what a collection or an episode is named by. */
  static key(parts: Json): string {
    return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 24);
  }

  /** The stored text of an episode, or undefined when there is none; throws naming the file when it is not one we could have written. */
  readEpisode(collection: string, item: string): string | undefined {
    checkKey('collection', collection);
    checkKey('episode', item);
    const path = this.existingPath(`${collection}/${item}.json`);
    return path === undefined ? undefined : readSmallBytes(path, MAX_EPISODE_BYTES)?.toString('utf8');
  }

  writeEpisode(collection: string, item: string, text: string): void {
    checkKey('collection', collection);
    checkKey('episode', item);
    this.land(`${collection}/${item}.json`, text);
  }

  /** An image's bytes as stored, or undefined when there is none (a link or an over-size file throws). */
  readImage(id: string): Buffer | undefined {
    if (!IMAGE_ID.test(id)) throw new Error(`episode store: ${JSON.stringify(String(id).slice(0, 80))} is not an image id`);
    const path = this.existingPath(`images/${id}`);
    return path === undefined ? undefined : readSmallBytes(path, MAX_IMAGE_BYTES);
  }

  /** Stores an image under its content id (once: the same id is the same bytes). */
  writeImage(id: string, bytes: Uint8Array): void {
    if (!IMAGE_ID.test(id)) throw new Error(`episode store: ${JSON.stringify(String(id).slice(0, 80))} is not an image id`);
    const path = this.existingPath(`images/${id}`);
    // Same id, same bytes: a file of the right size is this image (a reader checks the content anyway).
    if (path !== undefined && sizeOf(path) === bytes.length) return;
    this.land(`images/${id}`, bytes);
  }

  /** The path of `rel` inside the store, or undefined when the store (or the file) is not there yet. */
  private existingPath(rel: string): string | undefined {
    try {
      return resolveInside(this.dir, rel);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /** Writes beside the target, then renames over it: readers see the old file or the new one, never half of one. */
  private land(rel: string, data: string | Uint8Array): void {
    mkdirSync(this.dir, { recursive: true });
    const tmp = `${rel}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    const written = writeInside(this.dir, tmp, data);
    renameSync(written, resolveInside(this.dir, rel));
  }
}
