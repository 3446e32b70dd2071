// The host checks the shape of a primitive's arguments before any per-element work, even when a caller skips the
// isolate's own bounded copy (an in-process caller, or a prelude bug): holes, lengths, depth and totals.
import { describe, expect, it } from 'vitest';
import { argBoundsIssue } from '../../../sandbox/primitives/arg-bounds.ts';
import { InstancePrimitives } from '../../../sandbox/primitives/index.ts';
import { offlineServices } from '../../support/services.ts';

describe('argument bounds at the host', () => {
  it('refuses an array of 15 million holes by its length, without walking it', () => {
    const texts: string[] = [];
    texts.length = 15_000_000;
    const prims = new InstancePrimitives(offlineServices());
    const answer = prims.answer('embed', [texts]);
    expect(answer).toEqual({ ok: false, error: 'embed: argument 1 has 15,000,000 elements (at most 100,000)' });
    // The refusal is metered as a failed call, with no bytes counted for arguments it never read.
    expect(prims.usage().primitives.embed).toMatchObject({ calls: 1, errors: 1, bytesIn: 0 });
  });

  it('names a hole in a short array', () => {
    const messages = [{ role: 'user', content: 'hi' }];
    messages.length = 3;
    expect(argBoundsIssue('llm.chat', [{ messages }])).toBe('llm.chat: argument 1.messages[1] is a hole (the array has missing elements)');
  });

  it('names a deep argument instead of overflowing the stack', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(argBoundsIssue('embed', [deep])).toMatch(/^embed: argument 1(\[0\])+ is nested deeper than 8 levels$/);
  });

  it('counts keys, typed-array bytes and the total number of values', () => {
    const wide = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i]));
    expect(argBoundsIssue('vectors.create', [wide])).toBe('vectors.create: argument 1 has more than 64 keys');
    const limits = { maxDepth: 8, maxArrayLength: 100_000, maxKeys: 64, maxNodes: 1_000_000, maxChars: 1000 };
    expect(argBoundsIssue('vectors.add', [1, [{ vector: new Float64Array(200) }]], limits)).toMatch(/more than 1,000 characters or bytes/);
    const many = Array.from({ length: 90_000 }, () => [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(argBoundsIssue('vectors.add', [1, many])).toBe('vectors.add: arguments hold more than 1,000,000 values');
  });

  it('accepts what well-behaved programs send', () => {
    expect(argBoundsIssue('embed', [Array.from({ length: 512 }, (_, i) => `text ${i}`)])).toBeUndefined();
    const items = Array.from({ length: 1000 }, (_, i) => ({ label: i, vector: new Float64Array(512), tags: ['a', 'b'] }));
    expect(argBoundsIssue('vectors.add', [7, items])).toBeUndefined();
    expect(argBoundsIssue('vectors.search', [7, new Float64Array(512), 10, { labels: [1, 2, 3], ef: 50 }])).toBeUndefined();
  });
});
