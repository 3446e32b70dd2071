// hostile: throw while the module loads
// expect: interface /the program threw while loading: boom at load/
import { defineMemo } from 'automemo/contract';

throw new Error('boom at load');
export default defineMemo({ update() {}, retrieve: () => ({ text: '', images: [] }) });
