// hostile: fire 5,000 host calls without awaiting them, to queue work in the host
// expect: update /host calls are already in flight; await your calls/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  async update(_episode, ctx) {
    const pending: Promise<void>[] = [];
    for (let i = 0; i < 5_000; i++) pending.push(ctx.kv.set(`k${i}`, i));
    await Promise.all(pending);
  },
  retrieve: () => ({ text: '', images: [] }),
});
