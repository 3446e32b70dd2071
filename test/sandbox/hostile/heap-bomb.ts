// hostile: allocate until the heap is gone
// expect: update /update\(\) exceeded the \d+ MB heap cap/
import { defineMemo } from 'automemo/contract';

const hoard: number[][] = [];
export default defineMemo({
  update() {
    for (;;) hoard.push(new Array(1_000_000).fill(7));
  },
  retrieve: () => ({ text: '', images: [] }),
});
