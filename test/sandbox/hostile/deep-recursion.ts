// hostile: unbounded recursion
// expect: update /RangeError: Maximum call stack size exceeded \(at deep-recursion.ts:6/
import { defineMemo } from 'automemo/contract';

function down(n: number): number {
  return down(n + 1) + 1;
}

export default defineMemo({
  update() {
    down(0);
  },
  retrieve: () => ({ text: '', images: [] }),
});
