// hostile: fill durable state until the host runs out of memory
// expect: update /quota kvBytes exceeded/
// quotas: {"kvBytes": 8388608}
import { defineMemo } from 'automemo/contract';

// The quota is what stops it, whatever the machine's load: 8 MiB is reached after four 1 MB values, long before the
// CPU limit (copying the default 128 MiB across the boundary takes about a second, which once raced that limit).
export default defineMemo({
  async update(_episode, ctx) {
    const big = 'x'.repeat(1_000_000);
    for (let i = 0; ; i++) await ctx.kv.set(`blob-${i}`, big);
  },
  retrieve: () => ({ text: '', images: [] }),
});
