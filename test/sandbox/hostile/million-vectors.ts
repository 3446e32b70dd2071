// hostile: reserve an index for ten million 512-d vectors (about 20 GB of host memory)
// expect: update /quota vectorBytes exceeded/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  async update(_episode, ctx) {
    await ctx.vectors.create({ dim: 512, maxElements: 10_000_000 });
  },
  retrieve: () => ({ text: '', images: [] }),
});
