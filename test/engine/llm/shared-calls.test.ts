// Identical requests of a run are asked once: a twin in flight waits for the first, a later twin gets the answered
// reply; both learn whose reply it was. A failure is not kept, and the store stays within its bound.
import { describe, expect, it } from 'vitest';
import { requestKey, SharedCalls } from '../../../engine/llm/shared-calls.ts';

const origin = (step: number) => ({ step, node: 'seed-a', purpose: 'analysis' });

describe('SharedCalls', () => {
  it('asks a twin in flight once, and an answered one not again', async () => {
    const shared = new SharedCalls<string>();
    let asked = 0;
    let release: (v: string) => void = () => undefined;
    const ask = () => {
      asked++;
      return new Promise<string>((r) => {
        release = r;
      });
    };
    const key = requestKey({ messages: ['same'] });
    const first = shared.share(key, origin(1), ask);
    const second = shared.share(key, origin(2), ask);
    release('reply');
    expect(await first).toEqual({ value: 'reply' });
    expect(await second).toEqual({ value: 'reply', reusedFrom: origin(1) });
    expect(await shared.share(key, origin(3), ask)).toEqual({ value: 'reply', reusedFrom: origin(1) });
    expect(asked).toBe(1);
    // A different request is its own.
    expect(await shared.share(requestKey({ messages: ['other'] }), origin(4), async () => 'other reply')).toEqual({ value: 'other reply' });
  });

  it('forgets a failed request, so its next twin asks again', async () => {
    const shared = new SharedCalls<string>();
    const key = requestKey({ messages: ['flaky'] });
    await expect(shared.share(key, origin(1), async () => Promise.reject(new Error('endpoint down')))).rejects.toThrow('endpoint down');
    expect(await shared.share(key, origin(2), async () => 'fine')).toEqual({ value: 'fine' });
  });

  it('keeps at most its bound of answered requests, the oldest dropped first', async () => {
    const shared = new SharedCalls<number>(3);
    for (let i = 0; i < 5; i++) await shared.share(requestKey(i), origin(i), async () => i);
    expect(shared.size).toBe(3);
    expect((await shared.share(requestKey(4), origin(9), async () => -1)).reusedFrom).toEqual(origin(4));
    expect(await shared.share(requestKey(0), origin(9), async () => -1)).toEqual({ value: -1 });
  });
});
