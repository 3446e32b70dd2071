// hostile: functions inside a payload (they would run in the host if it called them)
// expect: payload-schema /payload.metadata.callback is a function/
import { defineMemo, type Json } from 'automemo/contract';

export default defineMemo({
  update() {},
  retrieve() {
    return { text: 'hi', images: [], metadata: { callback: (() => 'run me') as unknown as Json } };
  },
});
