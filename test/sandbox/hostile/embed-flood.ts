// hostile: 64 embed() calls in flight at once, each at the documented maximum (512 texts of 32,000 characters)
// expect: update /quota embedCharsInFlight exceeded: embed\(\) calls not yet answered hold 16384000 characters/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  async update(_episode, ctx) {
    const text = 'memory '.repeat(4572).slice(0, 32_000);
    const calls: Promise<number[][]>[] = [];
    for (let i = 0; i < 64; i++) calls.push(ctx.embed(new Array(512).fill(`${i}${text}`.slice(0, 32_000))));
    await Promise.all(calls);
  },
  retrieve: () => ({ text: '', images: [] }),
});
