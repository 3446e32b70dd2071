// hostile: fill durable state until the host runs out of memory
// expect: update /quota kvBytes exceeded/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  async update(_episode, ctx) {
    const big = 'x'.repeat(1_000_000);
    for (let i = 0; ; i++) await ctx.kv.set(`blob-${i}`, big);
  },
  retrieve: () => ({ text: '', images: [] }),
});
