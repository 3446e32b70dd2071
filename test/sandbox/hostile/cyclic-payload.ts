// hostile: a payload whose metadata refers to itself
// expect: payload-schema /payload.metadata.self contains a cycle/
import { defineMemo, type Json } from 'automemo/contract';

export default defineMemo({
  update() {},
  retrieve() {
    const meta: Record<string, unknown> = { ok: 1 };
    meta.self = meta;
    return { text: 'hi', images: [], metadata: meta as Json };
  },
});
