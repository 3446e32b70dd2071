// hostile: a promise that never settles
// expect: retrieve /retrieve\(\) did not finish within \d+ ms/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {},
  retrieve() {
    return new Promise(() => {});
  },
});
