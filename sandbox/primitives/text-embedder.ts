// What embeds text for ctx.embed: the offline model, an endpoint, or a cache in front of either (embed.ts,
// embed-cache.ts).
import type { EmbedOwner } from './embed-owner.ts';

export interface TextEmbedder {
  /** Names the model; part of every cache key. */
  readonly id: string;
  readonly offline: boolean;
  /** `owner`: whose work this is (default: the host's own); work of an owner that ended is cancelled. */
  embed(texts: string[], owner?: EmbedOwner): Promise<Float32Array[]>;
  /** The vectors right away when every text is already known, else undefined (no work started). */
  cached?(texts: string[]): Float32Array[] | undefined;
}
