// hostile: block the isolate's thread forever with Atomics.wait
// expect: update /ReferenceError: SharedArrayBuffer is not defined/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {
    const cell = new Int32Array(new SharedArrayBuffer(4));
    Atomics.wait(cell, 0, 0);
  },
  retrieve: () => ({ text: '', images: [] }),
});
