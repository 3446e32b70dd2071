// hostile: a payload text of 60 million characters
// expect: payload-budget /text is 60,000,000 characters; the budget is 50,000/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {},
  retrieve() {
    return { text: 'x'.repeat(60_000_000), images: [] };
  },
});
