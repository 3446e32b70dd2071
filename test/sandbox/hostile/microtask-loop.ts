// hostile: an endless chain of microtasks that never yields to the host
// expect: update /update\(\) used more than \d+ ms of CPU/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  async update() {
    for (;;) await null;
  },
  retrieve: () => ({ text: '', images: [] }),
});
