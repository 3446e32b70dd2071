// hostile: throw a number instead of an Error
// expect: update /update\(\) threw a non-Error value \(number\): 42/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {
    throw 42;
  },
  retrieve: () => ({ text: '', images: [] }),
});
