// hostile: climb from a host primitive's wrapper to a Function constructor and look for the host there
// expect: update /Cannot read properties of undefined \(reading 'require'\)/
import { defineMemo } from 'automemo/contract';

export default defineMemo({
  update(_episode, ctx) {
    const g = (ctx.embed as any).constructor('return this')();
    g.module.require('fs');
  },
  retrieve: () => ({ text: '', images: [] }),
});
