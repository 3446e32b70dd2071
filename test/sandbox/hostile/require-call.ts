// hostile: CommonJS require of a Node built-in
// expect: imports /require\(\) of "child_process" is not allowed/
import { defineMemo } from 'automemo/contract';
declare const require: (m: string) => any;

export default defineMemo({
  update() {
    require('child_process').execSync('touch /tmp/owned');
  },
  retrieve: () => ({ text: '', images: [] }),
});
