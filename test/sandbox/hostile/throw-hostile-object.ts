// hostile: throw an object whose toString loops and whose properties throw when read
// expect: update /threw a non-Error value \(object\): \[unprintable\]/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {
    const evil = {
      toString() {
        for (;;) {}
      },
      get message(): string {
        throw new Error('no message for you');
      },
    };
    throw evil;
  },
  retrieve: () => ({ text: '', images: [] }),
});
