// hostile: the classic constructor-chain escape to the host's `process`
// expect: update /ReferenceError: process is not defined/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {
    const proc = (globalThis as any).constructor.constructor('return process')();
    proc.mainModule.require('fs').writeFileSync('/tmp/owned', 'x');
  },
  retrieve: () => ({ text: '', images: [] }),
});
