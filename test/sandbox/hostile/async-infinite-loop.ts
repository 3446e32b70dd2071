// hostile: an infinite loop after an await (isolated-vm's own timeout does not see it)
// expect: update /update\(\) used more than \d+ ms of CPU; the sandbox was stopped/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  async update(_episode, ctx) {
    await ctx.kv.set('k', 1);
    for (;;) {}
  },
  retrieve: () => ({ text: '', images: [] }),
});
