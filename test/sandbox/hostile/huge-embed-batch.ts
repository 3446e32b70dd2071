// hostile: ask the host to embed 100,000 texts in one call
// expect: update /quota embedBatch exceeded: embed\(\) got 100000 texts/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  async update(_episode, ctx) {
    await ctx.embed(new Array(100_000).fill('x'));
  },
  retrieve: () => ({ text: '', images: [] }),
});
