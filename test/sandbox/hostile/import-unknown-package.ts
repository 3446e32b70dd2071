// hostile: import a package that is not on the allow-list (even unused)
// expect: imports /Import "openai" is not allowed: it is not on the allow-list/
import OpenAI from 'openai';
import { defineMemo } from 'automemo/contract';

void OpenAI;
export default defineMemo({ update() {}, retrieve: () => ({ text: '', images: [] }) });
