// hostile: never finish loading
// expect: interface /top-level code ran longer than \d+ ms/
import { defineMemo } from 'automemo/contract';

for (;;) {}
export default defineMemo({ update() {}, retrieve: () => ({ text: '', images: [] }) });
