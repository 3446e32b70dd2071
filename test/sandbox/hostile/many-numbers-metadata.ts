// hostile: metadata of 200,000 long numbers: no string at all, so a cap on strings alone let it through
// expect: payload-schema /payload.metadata.n\[\d+\] makes the payload's images and metadata larger than 2000000 characters as JSON/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {},
  retrieve() {
    return { text: 'ok', images: [], metadata: { n: new Array(200_000).fill(1.2345678901234567) } };
  },
});
