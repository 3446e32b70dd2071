// hostile: a payload Proxy whose traps spin forever when the host reads it
// expect: retrieve /used more than \d+ ms of CPU/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {},
  retrieve() {
    return new Proxy({} as any, {
      get() {
        for (;;) {}
      },
    });
  },
});
