// hostile: find require through indirect eval
// expect: update /ReferenceError: require is not defined/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {
    const indirect = eval;
    indirect('require')('fs');
  },
  retrieve: () => ({ text: '', images: [] }),
});
