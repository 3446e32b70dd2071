// The embedding cache embeds a text once however many callers ask for it at the same time, and a caller whose
// texts were being embedded for someone who then ended still gets its vectors.
import { afterAll, describe, expect, it } from 'vitest';
import { CachingEmbedder, closeEmbedPool, type TextEmbedder, UseLiteEmbedder } from '../../../sandbox/primitives/embed.ts';
import { EmbedCancelledError, type EmbedOwner, EmbedOwner as Owner } from '../../../sandbox/primitives/embed-owner.ts';

afterAll(() => closeEmbedPool());

/** The real offline embedder, counting the texts it is asked to embed. */
class Counting implements TextEmbedder {
  readonly inner = new UseLiteEmbedder();
  readonly id = this.inner.id;
  readonly offline = true;
  asked: string[] = [];
  embed(texts: string[], owner?: EmbedOwner): Promise<Float32Array[]> {
    this.asked.push(...texts);
    return this.inner.embed(texts, owner);
  }
}

const texts = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag}: turn ${i} about the picnic by the lake`);

describe('texts asked for by several callers at once', () => {
  it('are embedded once and every caller gets the same vectors', async () => {
    const counting = new Counting();
    const cache = new CachingEmbedder(counting);
    const shared = texts('shared', 12);
    const [a, b, c] = await Promise.all([
      cache.embed([...shared, ...texts('only a', 3)], new Owner()),
      cache.embed([...texts('only b', 2), ...shared.slice(4)], new Owner()),
      cache.embed(shared.slice(0, 6), new Owner()),
    ]);
    expect(counting.asked.filter((t) => t.startsWith('shared'))).toHaveLength(12);
    expect(counting.asked).toHaveLength(12 + 3 + 2);
    expect(cache.joined).toBe(8 + 6);
    expect(b.slice(2)).toEqual(a.slice(4, 12));
    expect(c).toEqual(a.slice(0, 6));
  });

  it('still reach a caller when the one they were being embedded for ends first', async () => {
    const counting = new Counting();
    const cache = new CachingEmbedder(counting);
    const first = new Owner();
    const shared = texts('abandoned', 40);
    const abandoned = cache.embed(shared, first).catch((e: unknown) => e);
    const second = cache.embed(shared.slice(0, 10), new Owner());
    first.close();
    expect(await abandoned).toBeInstanceOf(EmbedCancelledError);
    const vectors = await second;
    // It waited for the first caller's work, then, that work cancelled, embedded its 10 texts itself.
    expect(cache.joined).toBe(10);
    expect(counting.asked.filter((t) => t === shared[0])).toHaveLength(2);
    expect(vectors).toHaveLength(10);
    expect(vectors.every((v) => v.length === 512 && v.every(Number.isFinite))).toBe(true);
    expect(await cache.embed(shared.slice(0, 10))).toEqual(vectors);
  });
});
