// hostile: an argument nested 200,000 levels deep (the host's walk once overflowed its stack, naming nothing)
// expect: update /embed: argument 1\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]\[0\] is nested deeper than 8 levels/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  async update(_episode, ctx) {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    await ctx.embed(deep as string[]);
  },
  retrieve: () => ({ text: '', images: [] }),
});
