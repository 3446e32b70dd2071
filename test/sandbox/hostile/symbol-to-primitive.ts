// hostile: a text that is an object converting itself to a huge string when coerced
// expect: payload-schema /payload.text is object, not a string/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {},
  retrieve() {
    const text = { [Symbol.toPrimitive]: () => 'x'.repeat(10_000_000) };
    return { text: text as unknown as string, images: [] };
  },
});
