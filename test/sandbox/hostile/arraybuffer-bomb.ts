// hostile: allocate typed-array memory outside the JS object heap
// expect: update /heap cap|Array buffer allocation failed/
import { defineMemo } from 'automemo/contract';

const hoard: ArrayBuffer[] = [];
export default defineMemo({
  update() {
    for (;;) hoard.push(new ArrayBuffer(32 * 1024 * 1024));
  },
  retrieve: () => ({ text: '', images: [] }),
});
