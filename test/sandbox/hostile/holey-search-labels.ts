// hostile: a vector search whose labels filter is a 3-million-long array of holes
// expect: update /vectors.search: argument 4.labels has 3000000 elements/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  async update(_episode, ctx) {
    const index = await ctx.vectors.create({ dim: 4 });
    await index.add(1, [1, 0, 0, 0]);
    const labels: number[] = [];
    labels.length = 3_000_000;
    await index.search([1, 0, 0, 0], 1, { labels });
  },
  retrieve: () => ({ text: '', images: [] }),
});
