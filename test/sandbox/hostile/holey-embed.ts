// hostile: an empty array whose length is 15 million, handed to ctx.embed (the host once built an issue per hole)
// expect: update /embed: argument 1 has 15000000 elements \(at most 100000\)/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  async update(_episode, ctx) {
    const texts: string[] = [];
    texts.length = 15_000_000;
    await ctx.embed(texts);
  },
  retrieve: () => ({ text: '', images: [] }),
});
