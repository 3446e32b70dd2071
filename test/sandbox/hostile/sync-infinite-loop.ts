// hostile: a synchronous infinite loop
// expect: update /update\(\) used more than \d+ ms of CPU; the sandbox was stopped/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {
    for (;;) {}
  },
  retrieve: () => ({ text: '', images: [] }),
});
