// hostile: load a module at run time with a computed specifier
// expect: imports /dynamic import\(\) with a computed specifier is not allowed/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  async update() {
    const name = ['child', 'process'].join('_');
    const cp: any = await import(name);
    cp.execSync('touch /tmp/owned');
  },
  retrieve: () => ({ text: '', images: [] }),
});
