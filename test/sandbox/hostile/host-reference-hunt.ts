// hostile: walk every global looking for the isolated-vm host reference
// expect: update /no host reference among \d+ globals/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {
    const names = Object.getOwnPropertyNames(globalThis);
    for (const n of names) {
      const v = (globalThis as any)[n];
      if (v && typeof v === 'object' && typeof v.applySyncPromise === 'function') return; // escape
      if (n.startsWith('__automemo')) return; // escape
    }
    throw new Error(`no host reference among ${names.length} globals`);
  },
  retrieve: () => ({ text: '', images: [] }),
});
