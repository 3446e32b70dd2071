// hostile: schedule work outside any call with a host timer
// expect: update /ReferenceError: setTimeout is not defined/
import { defineMemo } from 'automemo/contract';
declare const setTimeout: (f: () => void, ms: number) => void;

export default defineMemo({
  update() {
    setTimeout(() => {
      for (;;) {}
    }, 10);
  },
  retrieve: () => ({ text: '', images: [] }),
});
