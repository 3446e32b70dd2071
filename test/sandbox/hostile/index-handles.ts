// hostile: open thousands of vector indices
// expect: update /quota vectorHandles exceeded/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  async update(_episode, ctx) {
    for (let i = 0; i < 5000; i++) await ctx.vectors.create({ dim: 8, maxElements: 16 });
  },
  retrieve: () => ({ text: '', images: [] }),
});
