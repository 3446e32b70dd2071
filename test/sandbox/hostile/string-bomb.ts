// hostile: double a string until it cannot grow
// expect: update /Invalid string length|heap cap/
import { defineMemo } from 'automemo/contract';

const keep: string[] = [];
export default defineMemo({
  update() {
    let s = 'x';
    for (;;) {
      s += s;
      keep.push(s);
    }
  },
  retrieve: () => ({ text: '', images: [] }),
});
