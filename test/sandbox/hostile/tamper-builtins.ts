// hostile: rewrite shared built-ins and helpers (JSON, Array.prototype, the BM25 helper, Object.prototype)
// hoping to corrupt the host or another program instance; the payload is then left inconsistent on purpose
// expect: payload-schema /payload.text is number, not a string/
import { defineMemo } from 'automemo/contract';
import { Bm25Index } from 'automemo/lib';

export default defineMemo({
  update() {
    JSON.stringify = () => '{"text":"forged"}';
    JSON.parse = () => ({ forged: true });
    Array.prototype.push = function () {
      return 0;
    };
    (Bm25Index.prototype as any).search = () => [{ id: 'forged', score: 99 }];
    (Object.prototype as any).polluted = 'yes';
    (Array.prototype as any)[Symbol.iterator] = function* () {
      yield 'forged';
    };
  },
  retrieve() {
    return { text: 7 as unknown as string, images: [] };
  },
});
