// hostile: use Error.prepareStackTrace call sites to capture the callers' functions and receivers
// expect: update /no host object reachable from 3 call sites/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update() {
    (Error as any).prepareStackTrace = (_e: Error, sites: any[]) => sites;
    const sites = (new Error('probe') as any).stack as any[];
    const found = sites
      .flatMap((s) => [s.getThis?.(), s.getFunction?.()])
      .filter((x) => x && (typeof x.applySync === 'function' || typeof x.apply === 'function' && 'derefInto' in x));
    if (found.length) return; // an escape: the check would pass and the test fails
    throw new Error(`no host object reachable from ${Math.min(sites.length, 3)} call sites`);
  },
  retrieve: () => ({ text: '', images: [] }),
});
