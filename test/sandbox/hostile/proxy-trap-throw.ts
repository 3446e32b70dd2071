// hostile: a payload Proxy that throws when read
// expect: retrieve /retrieve\(\) threw Error: gotcha/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {},
  retrieve() {
    return new Proxy({} as any, {
      get() {
        throw new Error('gotcha');
      },
    });
  },
});
