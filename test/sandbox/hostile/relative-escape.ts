// hostile: import a file outside the program's own folder
// expect: imports /leaves the program's folder/
import { defineMemo } from 'automemo/contract';
import * as host from '../../../foundation/paths.ts';

export default defineMemo({ update() {}, retrieve: () => ({ text: String(host.repoRoot), images: [] }) });
