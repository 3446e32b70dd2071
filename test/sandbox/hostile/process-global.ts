// hostile: reach the host process through a global
// expect: update /update\(\) threw TypeError: Cannot read properties of undefined \(reading 'exit'\) \(at process-global.ts:7/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {
    (globalThis as any).process.exit(1);
  },
  retrieve: () => ({ text: '', images: [] }),
});
