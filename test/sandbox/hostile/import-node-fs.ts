// hostile: import the host filesystem
// expect: imports /Import "node:fs" is not allowed/
import { readFileSync } from 'node:fs';
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {},
  retrieve() {
    return { text: readFileSync('/etc/passwd', 'utf8'), images: [] };
  },
});
