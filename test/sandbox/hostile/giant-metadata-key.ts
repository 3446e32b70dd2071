// hostile: metadata whose size is in a 2.5-million-character key, not in its strings
// expect: payload-schema /payload.metadata \(a key of 2500000 characters\) makes the payload's images and metadata larger than 2000000 characters as JSON/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {},
  retrieve() {
    return { text: 'ok', images: [], metadata: { ['k'.repeat(2_500_000)]: [0] } };
  },
});
