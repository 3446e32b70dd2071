// hostile: poison an index with NaN coordinates
// expect: update /vector\[0\] is NaN; vectors must be finite numbers/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  async update(_episode, ctx) {
    const idx = await ctx.vectors.create({ dim: 4 });
    await idx.add(1, [Number.NaN, 0, 0, 1]);
  },
  retrieve: () => ({ text: '', images: [] }),
});
