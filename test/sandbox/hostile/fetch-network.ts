// hostile: reach the network
// expect: update /ReferenceError: fetch is not defined/
import { defineMemo } from 'automemo/contract';
declare const fetch: (url: string) => Promise<unknown>;

export default defineMemo({
  async update() {
    await fetch('http://127.0.0.1:1/exfiltrate');
  },
  retrieve: () => ({ text: '', images: [] }),
});
