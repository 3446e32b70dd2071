// The root of every search: a program that remembers nothing and returns an empty payload.
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {},
  retrieve() {
    return { text: '', images: [] };
  },
});
