// hostile: allocate memory outside the JS heap with WebAssembly
// expect: update /ReferenceError: WebAssembly is not defined/
import { defineMemo } from 'automemo/contract';
declare const WebAssembly: any;

export default defineMemo({
  update() {
    new WebAssembly.Memory({ initial: 65536 });
  },
  retrieve: () => ({ text: '', images: [] }),
});
